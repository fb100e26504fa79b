"""The layout engine: a template and a card in, a ``FaceLayout`` (drawing operations in mm) out.

Pure geometry: it reads templates, font metrics and image headers, and never draws or writes a file.
"""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache
from typing import Any

from jinja2 import TemplateError as JinjaError

from carddb.errors import TemplateError
from carddb.layout import colours, ornaments, print_checks, text
from carddb.layout.art import ArtProblem, resolve_art
from carddb.layout.fonts import font_metrics
from carddb.layout.icons import centred_text, icon_ops
from carddb.layout.ops import (
    PT_MM,
    Contours,
    Ellipse,
    FaceLayout,
    ImageOp,
    Line,
    Op,
    Polygon,
    Problem,
    Rect,
    TextFit,
    TextRun,
    outlines,
)
from carddb.layout.placeholder import MOTIFS, placeholder_ops
from carddb.layout.repeats import find_repeats
from carddb.layout.roles import floor
from carddb.layout.template import Box, Template, TemplateSet
from carddb.layout.view import context_for

EDGE = 0.01  # a box this close to the card edge touches it (and extends into the bleed)
#: Text keeps this far inside its box (mm): the box's default padding, and what the layout report checks.
TEXT_CLEARANCE = 0.5


def layout_face(templates: TemplateSet, card: Any, *, bleed_mm: float = 0.0) -> FaceLayout:
    """The face of ``card`` drawn by the template of its kind."""
    tpl = templates.template_for(card.kind)
    return _Layout(templates, tpl, card, bleed_mm).run()


def layout_back(templates: TemplateSet, *, bleed_mm: float = 0.0) -> FaceLayout:
    """The game's card back (``templates/<game>/back.toml``)."""
    if templates.back is None:
        where = templates.root / "templates" / templates.game.id / "back.toml"
        raise TemplateError(f"{where}: no card back for {templates.game.id}")
    return _Layout(templates, templates.back, None, bleed_mm).run()


class _Layout:
    def __init__(self, templates: TemplateSet, tpl: Template, card: Any, bleed: float) -> None:
        if bleed < 0:
            raise TemplateError(f"bleed must be 0 or more millimetres, not {bleed}")
        self.ts, self.tpl, self.card, self.b = templates, tpl, card, float(bleed)
        self.ctx = context_for(templates.game, tpl, card, templates.reminders)
        w, h = tpl.size
        self.face = FaceLayout(w + 2 * self.b, h + 2 * self.b, self.b)
        self.missing: set[str] = set()
        self.label = card.name if card is not None else "card back"

    def run(self) -> FaceLayout:
        w, h = self.tpl.size
        bg = self._colour(self.tpl.background, f"{self.tpl.path}: background")
        if bg:
            self.face.ops.append(Rect(0.0, 0.0, w + 2 * self.b, h + 2 * self.b, fill=bg))
        drawn: list[tuple[Box, int, int]] = []  # each box drawn and the range of ops it drew
        for box in self.tpl.boxes:
            if box.when is not None and not self._eval_when(box):
                continue
            start = len(self.face.ops)
            getattr(self, f"_{box.shape}")(box)
            drawn.append((box, start, len(self.face.ops)))
        self._print_checks(drawn)
        if self.missing:
            chars = "".join(sorted(self.missing))
            self.face.warnings.append(f"{self.label}: no bundled font has {chars!r}; drawn as \ufffd")
        name = self.card.name if self.card is not None else ""
        for repeat in find_repeats(self.face.blocks, name):
            self.face.problems.append(Problem(repeat.boxes[0], "repeat", repeat.describe()))
        return self.face

    def _print_checks(self, drawn: list[tuple[Box, int, int]]) -> None:
        """The safe zone and the contrast of every text run (``print_checks``), added to the face's problems."""
        ops, b = self.face.ops, self.b
        w, h = self.tpl.size
        self.face.problems.extend(print_checks.safe_zone_problems(
            ((box.name, box.shape, ops[start:end]) for box, start, end in drawn), (b, b, b + w, b + h),
            self.ts.game.safe_zone_mm))
        self.face.contrasts = print_checks.contrasts(ops, ((box.name, start, end) for box, start, end in drawn))
        self.face.problems.extend(print_checks.contrast_problems(self.face.contrasts))

    # -- values -------------------------------------------------------------------------------------------
    def _eval_when(self, box: Box) -> bool:
        try:
            return bool(box.when(**self.ctx))
        except (JinjaError, TypeError, ValueError, AttributeError) as exc:
            raise TemplateError(f"{box.where}: when: {exc} (card {self.label})") from None

    def val(self, box: Box, key: str, default: Any = None) -> Any:
        if key in box.exprs:
            try:
                return box.exprs[key].render(**self.ctx)
            except (JinjaError, TypeError, ValueError, AttributeError) as exc:
                raise TemplateError(f"{box.where}: {key}: {exc} (card {self.label})") from None
        return box.values.get(key, default)

    def num(self, box: Box, key: str, default: float) -> float:
        value = self.val(box, key, default)
        try:
            return float(value)
        except (TypeError, ValueError):
            raise TemplateError(f"{box.where}: {key} must be a number, got {value!r} (card {self.label})") from None

    def colour(self, box: Box, key: str, default: str | None = None) -> str | None:
        return self._colour(self.val(box, key, default), f"{box.where}: {key}")

    def _colour(self, value: Any, where: str) -> str | None:
        if value is not None and not isinstance(value, str):
            value = value.render(**self.ctx)
        if value is None:
            return None
        try:
            return colours.parse(value)
        except ValueError as exc:
            raise TemplateError(f"{where}: {exc} (card {self.label})") from None

    def at(self, box: Box, extend: bool) -> tuple[float, float, float, float]:
        """The box on the face (bleed offset added); with ``extend``, edges on the card edge go into the bleed."""
        x, y, w, h = box.at
        x, y = x + self.b, y + self.b
        if extend and self.b:
            cw, ch = self.tpl.size
            if box.at[0] <= EDGE:
                x, w = x - self.b, w + self.b
            if box.at[1] <= EDGE:
                y, h = y - self.b, h + self.b
            if box.at[0] + box.at[2] >= cw - EDGE:
                w += self.b
            if box.at[1] + box.at[3] >= ch - EDGE:
                h += self.b
        return x, y, w, h

    # -- shapes -------------------------------------------------------------------------------------------
    def _rect(self, box: Box) -> None:
        x, y, w, h = self.at(box, extend=True)
        fill, fill_to = self.colour(box, "fill"), self.colour(box, "fill_to")
        fade = self._choice(box, "fade", "down", ("down", "right"))
        if fill_to and fill_to != fill and fill:
            # the gradient runs over the card's own box, not its bleed: the colour at the trim is the template's
            bx, by, bw, bh = self.at(box, extend=False)
            start, end = (by, by + bh) if fade == "down" else (bx, bx + bw)
            lo, hi = (y, y + h) if fade == "down" else (x, x + w)
            fill, fill_to = (colours.mix(fill, fill_to, (lo - start) / (end - start)),
                             colours.mix(fill, fill_to, (hi - start) / (end - start)))
        else:
            fill_to = None
        self.face.ops.append(Rect(x, y, w, h, fill, self.colour(box, "stroke"), self.num(box, "stroke_width", 0.3),
                                  self.num(box, "radius", 0.0), fill_to, fade))

    def _ellipse(self, box: Box) -> None:
        x, y, w, h = self.at(box, extend=False)
        self.face.ops.append(Ellipse(x, y, w, h, self.colour(box, "fill"), self.colour(box, "stroke"),
                                     self.num(box, "stroke_width", 0.3)))

    def _line(self, box: Box) -> None:
        (x1, y1), (x2, y2) = box.points[0], box.points[-1]
        self.face.ops.append(Line(x1 + self.b, y1 + self.b, x2 + self.b, y2 + self.b,
                                  self.colour(box, "colour", "#000000") or "#000000", self.num(box, "width", 0.3)))

    def _polygon(self, box: Box) -> None:
        pts = tuple((px + self.b, py + self.b) for px, py in box.points)
        self.face.ops.append(Polygon(pts, self.colour(box, "fill"), self.colour(box, "stroke"),
                                     self.num(box, "stroke_width", 0.3)))

    def _text(self, box: Box) -> None:
        content = str(self.val(box, "text", "")).strip()
        reminder = str(self.val(box, "reminder", "")).strip()
        if not content:
            if not reminder:
                return
            content, reminder = reminder, ""  # nothing else to say: the optional text is the text
        outer = self.at(box, extend=False)
        # unsaid, the padding is the clearance left and right only: above the capitals and below the baseline a
        # line's own ascent and descent keep letters off the edge
        pad = self.num(box, "padding", -1.0)
        across, down = (TEXT_CLEARANCE, 0.0) if pad < 0 else (pad, pad)
        x, y = outer[0] + across, outer[1] + down
        w, h = max(outer[2] - 2 * across, 0.1), max(outer[3] - 2 * down, 0.1)
        style = str(self.val(box, "font", "regular"))
        fonts = self.ts.fonts
        main = fonts.main(style)
        role = self.ts.role(box)
        least = floor(role)
        size = max(self.num(box, "size", 9.0), least)
        min_size = max(min(self.num(box, "min_size", 6.0), size), least)
        leading = self.num(box, "leading", 1.15)
        align = self._choice(box, "align", "left", ("left", "center", "right"))
        valign = self._choice(box, "valign", "top", ("top", "middle", "bottom"))
        wrap = bool(self.val(box, "wrap", True))
        colour = self.colour(box, "colour", "#000000") or "#000000"

        def fitted_for(source: str, smallest: float) -> text.Fitted:
            paragraphs = text.parse(source, style, fonts, self._has_icon, self.missing)
            return text.fit(paragraphs, w / PT_MM, h / PT_MM, size, smallest, leading, main.ascent, main.descent,
                            wrap, main.path)

        fitted = fitted_for(content, min_size)
        if reminder and not fitted.overflow:
            # reminder lines only where they cost at most 1 pt of size: as many of them as fit, in order
            lines = [line for line in reminder.split("\n") if line.strip()]
            smallest = max(min_size, fitted.size - 1.0)
            for keep in range(len(lines), 0, -1):
                longer = "\n".join([content, *lines[:keep]])
                with_reminder = fitted_for(longer, smallest)
                if not with_reminder.overflow:
                    fitted, content = with_reminder, longer
                    break
        self.face.fits.append(TextFit(box.name, fitted.size, size, fitted.overflow))
        self.face.blocks.append((box.name, plain(content)))
        if fitted.overflow:
            what, mm = fitted.short
            lack = f"{mm:g} mm more {what}" if mm > 0 else "more room"
            self.face.problems.append(Problem(box.name, "overflow", f"{box.name}: does not fit at the {role} "
                                              f"minimum of {min_size:g} pt; it needs {lack} (text cut)"))
        start = len(self.face.ops)
        self.face.ops.extend(text.place(fitted, x, y, w, h, align=align, valign=valign, leading=leading,
                                        ascent=main.ascent, cap_height=main.cap_height, descent=main.descent,
                                        colour=colour, draw_icon=self._draw_icon, role=role))
        self._check_glyphs(box.name, start, "symbol", icons_only=True, text_size=fitted.size)
        if not fitted.overflow:  # cut text is reported already, by how much it lacks
            self._check_clearance(box.name, start, outer)

    def _check_clearance(self, box: str, start: int, outer: tuple[float, float, float, float]) -> None:
        """An ``edge`` problem when a letter drawn since op ``start`` comes within ``TEXT_CLEARANCE`` of the box's
        edge: from the first letter's left to the last one's right, from the capitals' top to the baseline."""
        runs = [op for op in self.face.ops[start:] if isinstance(op, TextRun)]
        if not runs:
            return
        left = min(run.x for run in runs)
        right = max(run.x + font_metrics(run.font).width(run.text) * run.size * PT_MM for run in runs)
        top = min(run.y - font_metrics(run.font).cap_height * run.size * PT_MM for run in runs)
        bottom = max(run.y for run in runs)
        x, y, w, h = outer
        gaps = {"left": left - x, "right": x + w - right, "top": top - y, "bottom": y + h - bottom}
        side, gap = min(gaps.items(), key=lambda item: item[1])
        if gap < TEXT_CLEARANCE - 0.005:  # positions are kept to 0.1 micrometre
            self.face.problems.append(Problem(box, "edge", f"{box}: its text is {max(gap, 0.0):.2f} mm from the box's "
                                              f"{side} edge, under {TEXT_CLEARANCE:g} mm"))

    def _check_glyphs(self, box: str, start: int, role: str, *, icons_only: bool = False,
                      text_size: float = 0.0) -> None:
        """Report a glyph drawn since op ``start`` under ``role``'s floor (inline icons: their own letters)."""
        least = floor(role)
        small = [op.size for op in self.face.ops[start:] if isinstance(op, TextRun)
                 and (not icons_only or abs(op.size - text_size) > 1e-9) and op.size < least - 1e-9]
        if small:
            worst = min(small)
            self.face.problems.append(Problem(box, "too-small", f"{box}: {'icon ' if icons_only else ''}letters at "
                                              f"{worst:.2f} pt, under the {least:g} pt minimum "
                                              f"({least - worst:.2f} pt short)"))

    def _art(self, box: Box) -> None:
        x, y, w, h = self.at(box, extend=True)
        base = self.colour(box, "placeholder", "#888888") or "#888888"
        motif = self._choice(box, "motif", "landscape", MOTIFS)
        fallback = self._symbol(box, (x, y, w, h), base) or placeholder_ops(x, y, w, h, base, motif)
        art = self.card.get("art", "") if self.card is not None else ""
        if art:
            try:
                path, (iw, ih) = resolve_art(self.ts.root, self.ts.game.id, art)
            except ArtProblem as problem:
                self.face.warnings.append(f"{self.label}: art {art!r} {problem}; drawn a placeholder")
                self.face.ops.extend(fallback)
            else:
                self.face.images.append(str(path))
                self.face.ops.append(ImageOp(str(path), x, y, w, h, cover_crop(iw, ih, w, h), tuple(fallback)))
        else:
            self.face.ops.extend(fallback)
        stroke = self.colour(box, "stroke")
        if stroke:
            bx, by, bw, bh = self.at(box, extend=False)
            self.face.ops.append(Rect(bx, by, bw, bh, None, stroke, self.num(box, "stroke_width", 0.3)))

    def _symbol(self, box: Box, at: tuple[float, float, float, float], base: str) -> list[Op]:
        """The card's symbol (an icon of game-icons.net) on a soft ground of the box's colour: the art of a card
        without a picture. Empty when the template names none, or the set is not installed (the render's notes
        say so once) or has no such icon (this face's warnings say so)."""
        name = str(self.val(box, "symbol", "")).strip()
        icon_set = self.ts.icon_set if name else None
        if icon_set is None:
            return []
        contours = icon_set.contours(name)
        if contours is None:
            self.face.warnings.append(f"{self.label}: the icon set has no symbol {name!r} (see game-icons.net); "
                                      f"drawn the placeholder")
            return []
        ink = self.colour(box, "symbol_colour") or colours.mix(base, "#000000", 0.35)
        x, y, w, h = at
        bx, by, bw, bh = self.at(box, extend=False)  # centred on the card's part of the box, not its bleed
        side = min(bw, bh) * 0.72
        left, top = bx + (bw - side) / 2, by + (bh - side) / 2
        halo = min(bw, bh) * 0.92
        ops: list[Op] = [Rect(x, y, w, h, colours.mix(base, "#ffffff", 0.62)),
                         Ellipse(bx + (bw - halo) / 2, by + (bh - halo) / 2, halo, halo,
                                 colours.mix(base, "#ffffff", 0.85))]
        ops.append(_placed(contours, round(left, 4), round(top, 4), round(side, 4), ink))
        return ops

    def _frame(self, box: Box) -> None:
        """A frame: a ring ``stroke_width`` wide on the box's outline (its corners square, round, bevelled or
        notched), its inside filled, an inner rule, and an ornament on each corner."""
        x, y, w, h = self.at(box, extend=False)
        corner = self._choice(box, "corner", "round", ornaments.CORNERS)
        size = self.num(box, "corner_size", 2.0)
        fill, stroke, rule = self.colour(box, "fill"), self.colour(box, "stroke"), self.colour(box, "rule")
        if fill:
            self.face.ops.append(outlines((ornaments.outline(x, y, w, h, corner, size),), fill))
        if stroke:
            self.face.ops.append(outlines(ornaments.ring(x, y, w, h, corner, size, self.num(box, "stroke_width", 0.6)),
                                          stroke))
        if rule:
            self.face.ops.append(outlines(ornaments.ring(x, y, w, h, corner, size, self.num(box, "rule_width", 0.25),
                                                         self.num(box, "rule_inset", 1.0)), rule))
        kind = str(self.val(box, "ornament", "none")).strip() or "none"
        if kind == "none":
            return
        colour = self.colour(box, "ornament_colour") or stroke or rule or "#000000"
        side = self.num(box, "ornament_size", 2.4)
        drawing = None
        if kind not in ornaments.ORNAMENTS:
            drawing = self.ts.icon_set.contours(kind) if self.ts.icon_set is not None else None
            if drawing is None:
                if self.ts.icon_set is not None:
                    self.face.warnings.append(f"{self.label}: {box.name}: no ornament or icon named {kind!r} "
                                              f"(ornaments: {', '.join(ornaments.ORNAMENTS)}, or a game-icons name)")
                return
        marks: list[tuple[tuple[float, float], ...]] = []
        for quadrant, (cx, cy) in enumerate(ornaments.corner_points(x, y, w, h, corner, size)):
            marks.extend(ornaments.mirrored(drawing, cx, cy, side, quadrant) if drawing is not None
                         else ornaments.ornament(kind, cx, cy, side, quadrant))
        self.face.ops.append(outlines(tuple(marks), colour))

    def _texture(self, box: Box) -> None:
        """A fine pattern in one colour over the box (a tint near what is under it reads as a surface)."""
        colour = self.colour(box, "colour")
        if not colour:
            return
        pattern = self._choice(box, "pattern", "linen", ornaments.PATTERNS)
        scale = max(self.num(box, "scale", 0.8), 0.2)
        x, y, w, h = self.at(box, extend=True)
        texture = _texture(pattern, round(x, 4), round(y, 4), round(w, 4), round(h, 4), scale,
                           self.num(box, "radius", 0.0), box.name, colour)
        if texture is not None:
            self.face.ops.append(texture)

    def _icon(self, box: Box) -> None:
        name = str(self.val(box, "icon", "")).strip()
        if not name:
            return
        x, y, w, h = self.at(box, extend=False)
        side = min(w, h)
        start = len(self.face.ops)
        self._place_icons([name], x + (w - side) / 2, y + (h - side) / 2, side, 0.0, box)
        self._check_glyphs(box.name, start, "symbol")

    def _icons(self, box: Box) -> None:
        names = [n for n in str(self.val(box, "icons", "")).replace(",", " ").split() if n]
        names = [n for n in names if self._known_icon(n)]
        if not names:
            return
        x, y, w, h = self.at(box, extend=False)
        gap = self.num(box, "gap", 0.6)
        total = len(names) * h + (len(names) - 1) * gap
        align = self._choice(box, "align", "left", ("left", "center", "right"))
        start = x if align == "left" else (x + w - total if align == "right" else x + (w - total) / 2)
        first = len(self.face.ops)
        self._place_icons(names, start, y, h, gap, box)
        self._check_glyphs(box.name, first, "symbol")

    def _place_icons(self, names: list[str], x: float, y: float, side: float, gap: float, box: Box) -> None:
        colour = self.colour(box, "colour", "#000000") or "#000000"
        for name in names:
            if self._known_icon(name):
                self.face.ops.extend(self._draw_icon(name, x, y, side, colour))
            x += side + gap

    def _emblem(self, box: Box) -> None:
        label = str(self.val(box, "text", "")).strip()
        if not label:
            return
        x, y, w, h = self.at(box, extend=False)
        side = min(w, h)
        ex, ey = x + (w - side) / 2, y + (h - side) / 2
        digest = hashlib.sha256(label.casefold().encode()).digest()
        fill = self.colour(box, "fill") or colours.from_hash(digest)
        stroke = self.colour(box, "stroke") or colours.mix(fill, "#000000", 0.5)
        ink = self.colour(box, "colour") or max(("#ffffff", "#111111"),
                                                key=lambda c: print_checks.contrast_ratio(c, fill))
        self.face.ops.append(Ellipse(ex, ey, side, side, fill, stroke, side * 0.06))
        initials = "".join(word[0] for word in label.replace("-", " ").split()[:2]).upper()
        inner = side * 0.56
        start = len(self.face.ops)
        self.face.ops.extend(centred_text(initials, ex + (side - inner) / 2, ey + (side - inner * 0.75) / 2, inner,
                                          inner * 0.75, "bold", ink, self.ts.fonts))
        self._check_glyphs(box.name, start, "symbol")

    # -- helpers ------------------------------------------------------------------------------------------
    def _choice(self, box: Box, key: str, default: str, choices: tuple[str, ...]) -> str:
        value = str(self.val(box, key, default))
        if value not in choices:
            raise TemplateError(f"{box.where}: {key} must be one of {', '.join(choices)}, got {value!r}")
        return value

    def _has_icon(self, name: str) -> bool:
        return name.casefold() in self.ts.icons

    def _known_icon(self, name: str) -> bool:
        if self._has_icon(name):
            return True
        self.face.warnings.append(f"{self.label}: no icon named {name!r} (icons: {', '.join(sorted(self.ts.icons))})")
        return False

    def _draw_icon(self, name: str, x: float, y: float, side: float, colour: str) -> list[Op]:
        return icon_ops(self.ts.icons[name.casefold()], x, y, side, colour, self.ts.fonts)


@lru_cache(maxsize=512)
def _placed(contours: tuple, left: float, top: float, side: float, ink: str) -> Contours:
    """A symbol's unit outlines placed in its square, made once for all the faces that show it there."""
    return outlines(tuple(tuple((round(left + u * side, 4), round(top + v * side, 4)) for u, v in contour)
                          for contour in contours), ink)


@lru_cache(maxsize=64)
def _texture(pattern: str, x: float, y: float, w: float, h: float, scale: float, radius: float, seed: str,
             colour: str) -> Contours | None:
    """A texture's marks as one outline op, made once for every face of a kind (the same object each time)."""
    marks = ornaments.texture(pattern, x, y, w, h, scale, radius, seed)
    return outlines(marks, colour, texture=True) if marks else None


def cover_crop(iw: int, ih: int, w: float, h: float) -> tuple[int, int, int, int]:
    """The centred part of an iw x ih image with the box's proportions (the image covers the box, cropped)."""
    box_ratio = w / h
    if iw / ih > box_ratio:
        cw = max(1, round(ih * box_ratio))
        left = (iw - cw) // 2
        return left, 0, left + cw, ih
    ch = max(1, round(iw / box_ratio))
    top = (ih - ch) // 2
    return 0, top, iw, top + ch



_MARKUP = re.compile(r"\*\*|__|\{[A-Za-z0-9_\-]+\}")


def plain(markup: str) -> str:
    """Text as a reader sees it: the markup and inline icon names taken out."""
    return _MARKUP.sub("", markup)
