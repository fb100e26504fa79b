"""``carddb render``: draw a game's card faces (and its back) as PNG or JPEG files."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from carddb.cli.common import deprecated, state
from carddb.cli.parsing import INTEGER, single, workspace_game
from carddb.errors import FaceRuleError, InputError

app = single()


@app.command("render")
def render(
    ctx: typer.Context,
    *,
    game: Annotated[str | None, typer.Option(
        "--game", "-g", callback=workspace_game, help="The game whose faces to draw.")] = None,
    set_code: Annotated[str | None, typer.Option("--set", "-s", help="Only the cards of this set.")] = None,
    out: Annotated[Path | None, typer.Option(
        "--out", "-o", help="Output folder (default: output/faces); faces go in <out>/<game>/.")] = None,
    dpi: Annotated[int, typer.Option("--dpi", click_type=INTEGER, help="Resolution in dots per inch.")] = 300,
    fmt: Annotated[str, typer.Option("--file-format", help="png or jpg.")] = "png",
    old_fmt: Annotated[str | None, typer.Option(
        "--format", "-f", hidden=True, help="Deprecated: --file-format.")] = None,
    strict: Annotated[bool, typer.Option(
        "--strict", help="Fail (exit 1) when a face breaks a legibility rule: text cut, letters under their "
             "minimum, text printed twice, a line or letter in the safe zone, contrast under 4.5:1.")] = False,
    card_name: Annotated[str | None, typer.Option(
        "--card", "-c", help="Draw only this card, at once, and print where its image is (a quick look while "
             "writing a template).")] = None,
    open_it: Annotated[bool, typer.Option(
        "--open", help="With --card: open the image in the system's viewer (when there is a display).")] = False,
) -> None:
    """Draw card faces from the game's templates; only faces whose card, template, fonts or art changed are
    drawn again. Every face is checked against the legibility rules and the breaks are listed."""
    from carddb.catalogue.game_cards import game_and_cards
    from carddb.paint.render import render_faces  # Pillow and ReportLab load only for this command

    fmt = deprecated(old_fmt, "--format", "--file-format") or fmt
    st = state(ctx)
    workspace = st.workspace
    # the catalogue's cards; for a game it does not hold yet, the card files' (read, never loaded: print does so)
    definition, cards = game_and_cards(game, None, st.db, st.root)
    if set_code and set_code.casefold() not in {s.code.casefold() for s in definition.sets}:
        known = ", ".join(s.code for s in definition.sets) or "none"
        raise InputError(f"{game} has no set {set_code!r} (sets: {known})")
    game_cards = cards  # face file names are unique within the whole game, whichever set is drawn
    if set_code:
        cards = [card for card in cards if any(p.set.casefold() == set_code.casefold() for p in card.printings)]
    out_dir = out or workspace.output_dir / "faces"
    if out_dir.exists() and not out_dir.is_dir():
        raise InputError(f"{out_dir} is a file; --out takes the folder the faces go in")
    if card_name is not None:
        _preview(st, workspace.root, definition, cards, card_name, out_dir, dpi, fmt, open_it, strict)
        return
    if open_it:
        raise InputError("--open opens one card's face: name it with --card")
    with st.progress() as progress, progress.task(f"Drawing {game} faces") as task:
        report = render_faces(workspace.root, definition, cards, out_dir, dpi=dpi, fmt=fmt, progress=task,
                              game_cards=game_cards)
    folder = report.files["back"].parent
    st.say(f"{game}: drew {len(report.drawn)} face{'s' if len(report.drawn) != 1 else ''}, "
           f"reused {len(report.reused)}, in {folder}")
    for name in report.drawn if len(report.drawn) <= 20 else []:
        st.say(f"  drew {name}")
    for fit in report.shrunk:
        typer.echo(f"  shrunk: {fit.card} ({fit.box} {fit.wanted:g} pt -> {fit.size:g} pt)")
    # an overflow is listed with the other breaks below, with the room it lacked
    for warning in report.warnings:
        typer.echo(f"  warning: {warning}")
    for note in report.notes:
        typer.echo(f"  note: {note}")
    for problem in report.problems:
        typer.echo(f"  {problem.rule}: {problem.card}: {problem.message}")
    if strict and report.problems:
        cards = len({p.card for p in report.problems})
        first = report.problems[0]
        raise FaceRuleError(f"{cards} face{'s' if cards != 1 else ''} of {game} break{'s' if cards == 1 else ''} "
                            f"a legibility rule (listed above), the first {first.card}: {first.message}; "
                            f"--strict fails on them")


def _preview(st, root: Path, definition, cards, name: str, out_dir: Path, dpi: int, fmt: str,  # type: ignore[no-untyped-def]
             open_it: bool, strict: bool) -> None:
    """``render --card``: one face, its path on stdout (for a script or a viewer), then its layout report."""
    from carddb.paint.open_file import open_with_viewer
    from carddb.paint.render import preview_face

    report, path = preview_face(root, definition, cards, name, out_dir, dpi=dpi, fmt=fmt)
    typer.echo(str(path))
    drawn = [label for label in report.drawn if label != "(card back)"]
    st.say(f"  {'drawn' if drawn else 'unchanged, not drawn again'}")
    for fit in report.shrunk:
        if fit.card != "(card back)":
            typer.echo(f"  shrunk: the {fit.box} text from {fit.wanted:g} pt to {fit.size:g} pt to fit")
    for warning in report.warnings:
        typer.echo(f"  warning: {warning}")
    problems = [p for p in report.problems if p.card != "(card back)"]
    for problem in problems:
        typer.echo(f"  {problem.rule}: {problem.message}")
    if open_it:
        said = open_with_viewer(path)
        if said:
            typer.echo(f"  {said}", err=True)
    if strict and problems:
        raise FaceRuleError(f"the face of {name} breaks a legibility rule (listed above), the first "
                            f"{problems[0].message}; --strict fails on it")
