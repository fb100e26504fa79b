"""One face drawn in memory for the card studio (``carddb.site.studio_http``): the same layout engine and painter
as every other face, nothing written, at a screen's resolution so a keystroke redraws it in a blink."""

from __future__ import annotations

from pathlib import Path

from carddb.core.cards.card import Card
from carddb.core.game.definition import GameDefinition

#: A face 63 mm wide is ~500 px at this: as wide as the card page shows it.
PREVIEW_DPI = 200


def face_png(workspace_root: str | Path, game: GameDefinition, card: Card, dpi: int = PREVIEW_DPI
             ) -> tuple[bytes, list[dict[str, str]]]:
    """The card's face as PNG bytes, and what its layout report says of it (text shrunk or cut, a legibility
    rule broken): ``{"box", "rule", "message"}`` each."""
    from carddb.layout import layout_face
    from carddb.layout.fonts import forget_changed_fonts
    from carddb.layout.template import loaded_templates
    from carddb.paint.raster import png_bytes, render_image

    forget_changed_fonts()  # the studio's process lives long: a font saved over since is read again
    face = layout_face(loaded_templates(workspace_root, game), card)
    said = [{"box": fit.box, "rule": "shrunk",
             "message": f"{fit.box}: text shrunk from {fit.wanted:g} pt to {fit.size:g} pt to fit"}
            for fit in face.fits if fit.size < fit.wanted and not fit.overflow]
    said += [{"box": problem.box, "rule": problem.rule, "message": problem.message} for problem in face.problems]
    return png_bytes(render_image(face, dpi), dpi), said


def inline_icons(workspace_root: str | Path, game: GameDefinition) -> list[str]:
    """The ``{name}`` icons a card's text can place inline, for the form's hint."""
    from carddb.layout.template import loaded_templates

    return sorted(loaded_templates(workspace_root, game).icons)
