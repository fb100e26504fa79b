"""``carddb print``: proxy sheets from a deck list, a set or a whole game; duplex calibration; printer profiles.

    carddb print [DECKFILE] --game G [--set S] --out FILE.pdf [options]
    carddb print calibration --out FILE.pdf [--paper P] [--flip long|short] [--profile P]
    carddb print profile --top T --bottom B --left L --right R --out PRINTER.toml [--paper P] [--base OLD.toml]
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from carddb.cli import bundled_click as click
from carddb.cli.common import state
from carddb.cli.parsing import INTEGER, NUMBER, Group, group, workspace_game
from carddb.paint.print_options import DEFAULTS

DEFAULT_COMMAND = "sheets"


class PrintGroup(Group):
    """``carddb print DECKFILE ...`` runs the hidden ``sheets`` command; named subcommands run as usual."""

    default_command = DEFAULT_COMMAND

    def parse_args(self, ctx: typer.Context, args: list[str]) -> list[str]:
        if not args or (args[0] not in self.commands and args[0] not in ("--help", "-h")):
            args = [DEFAULT_COMMAND, *_bleed_alone(args)]
        return super().parse_args(ctx, args)

    def format_help(self, ctx: typer.Context, formatter: click.HelpFormatter) -> None:
        """``carddb print --help`` shows the options of printing a deck or a set (the hidden default command,
        whose epilog names the subcommands); otherwise --paper, --layout and the rest would be nowhere to be seen."""
        sheets_command = self.commands[DEFAULT_COMMAND]
        with type(ctx)(sheets_command, info_name=ctx.info_name, parent=ctx.parent) as sheets_ctx:
            sheets_command.format_help(sheets_ctx, formatter)


def _bleed_alone(args: list[str]) -> list[str]:
    """``--bleed`` without a number means the default bleed (3 mm)."""
    from carddb.layout.impose import DEFAULT_BLEED_MM

    out: list[str] = []
    for i, arg in enumerate(args):
        out.append(arg)
        if arg == "--bleed":
            following = args[i + 1] if i + 1 < len(args) else None
            try:
                float(following or "")
            except ValueError:
                out.append(f"{DEFAULT_BLEED_MM:g}")
    return out


app = group(cls=PrintGroup, no_args_is_help=False,
            help="Print proxy sheets: 'carddb print [DECKFILE] --game G --out FILE.pdf'; "
                      "also 'print calibration' and 'print profile'.")


@app.command(DEFAULT_COMMAND, hidden=True,
             epilog="Double-sided sheets: 'carddb print calibration --help' (a duplex test sheet) and "
                    "'carddb print profile --help' (a printer profile from its four readings).")
def sheets(
    ctx: typer.Context,
    *,
    deckfile: Annotated[Path | None, typer.Argument(
        help="A deck list (or LackeyCCG .dek, Apprentice .dec); without it, one of every card of "
             "the game or --set.")] = None,
    game_id: Annotated[str | None, typer.Option(
        "--game", "-g", callback=workspace_game, help="The game the cards belong to.")] = None,
    set_code: Annotated[str | None, typer.Option("--set", "-s", help="Print one of every card of this set.")] = None,
    out: Annotated[Path, typer.Option("--out", "-o", help="The PDF to write.")],
    paper: Annotated[str, typer.Option(
        "--paper", help="A4, Letter, Legal, A3, Tabloid or WxH (mm or in).")] = DEFAULTS.paper,
    card: Annotated[str | None, typer.Option(
        "--card", help="poker, bridge, yugioh, euro, mini, mini-euro, tarot, square or WxH (mm or in); default: the "
             "game's card size.")] = None,
    orientation: Annotated[str, typer.Option(
        "--orientation", help="auto (most cards a page), portrait, landscape.")] = DEFAULTS.orientation,
    bleed: Annotated[float | None, typer.Option(
        "--bleed", click_type=NUMBER, help="Bleed around each card in mm ('--bleed' alone: 3 mm; default: up to 1.5 "
             "mm, as much as leaves room for the crop marks and costs no card a page).")] = None,
    gutter: Annotated[float, typer.Option(
        "--gutter", click_type=NUMBER, help="Space between cards in mm.")] = DEFAULTS.gutter,
    margins: Annotated[str | None, typer.Option(
        "--margins", help="Unprintable edge in mm: 5, or 5,8, or top,right,bottom,left (default: the profile's, "
             "else 5).")] = None,
    marks: Annotated[bool, typer.Option("--marks/--no-marks", help="Crop marks outside the cards.")] = DEFAULTS.marks,
    layout: Annotated[str, typer.Option(
        "--layout", help="fronts, duplex-long, duplex-short, fold or single.")] = DEFAULTS.layout,
    fold_margin: Annotated[float, typer.Option(
        "--fold-margin", click_type=NUMBER, help="fold: mm kept clear each side of the fold "
                                                 "line.")] = DEFAULTS.fold_margin,
    header: Annotated[bool, typer.Option(
        "--header/--no-header", help="A line over the cards: deck, page n of m, side.")] = DEFAULTS.header,
    deck_list: Annotated[bool, typer.Option("--deck-list", help="Begin with a page listing the deck.")] = False,
    raster: Annotated[bool, typer.Option("--raster", help="Embed JPEG faces instead of vector faces.")] = False,
    dpi: Annotated[int, typer.Option("--dpi", click_type=INTEGER, help="Resolution of --raster faces.")] = DEFAULTS.dpi,
    profile: Annotated[Path | None, typer.Option(
        "--profile", help="A printer profile (.toml) correcting duplex backs.")] = None,
    max_mb: Annotated[float | None, typer.Option(
        "--max-mb", click_type=NUMBER, help="Split into several PDFs of at most this many MB.")] = None,
    grid: Annotated[str | None, typer.Option(
        "--grid", help="Demand COLSxROWS cards a page (an error says why it cannot).")] = None,
    strict: Annotated[bool, typer.Option(
        "--strict", help="Fail when a card's art has fewer pixels than the print needs (default: "
                         "warn).")] = DEFAULTS.strict,
) -> None:
    """Print proxy sheets of a deck (with its counts), a set or a whole game, checked after writing."""
    from carddb.catalogue.game_cards import game_and_cards
    from carddb.errors import InputError
    from carddb.files.reading import read_deck_file
    from carddb.paint.print_job import PrintOptions, cards_of_set, print_cards, print_deck

    st = state(ctx)
    if deckfile is not None and set_code:
        raise InputError("give a deck file or --set, not both")
    options = PrintOptions(paper=paper, card=card, orientation=orientation, margins=margins, gutter=gutter,
                           bleed=bleed, marks=marks, layout=layout, raster=raster, dpi=dpi,
                           profile=str(profile) if profile else None, max_mb=max_mb, grid=grid,
                           fold_margin=fold_margin, header=header, deck_list=deck_list, strict=strict)
    game, cards = game_and_cards(game_id, None, st.db, st.root)
    root = st.workspace.root
    with st.progress() as progress, progress.task(f"Printing {out.name}"):
        if deckfile is not None:
            text = read_deck_file(deckfile)
            result = print_deck(root, game, cards, text, out, options, filename=deckfile.name)
        else:
            chosen = cards_of_set(game, cards, set_code)
            title = f"set {set_code}" if set_code else "every card"
            result = print_cards(root, game, chosen, out, options, title=title)
    st.say(result.report.summary())
    _tell(result)


def _tell(result: Any) -> None:
    if result.not_printed:
        typer.echo(f"Not printed ({len(result.not_printed)}):", err=True)
        for item in result.not_printed:
            typer.echo(f"  {item}", err=True)
    for warning in result.warnings:
        typer.echo(f"warning: {warning}", err=True)


@app.command("calibration")
def calibration(
    *,
    out: Annotated[Path, typer.Option("--out", "-o", help="The calibration PDF to write.")],
    paper: Annotated[str, typer.Option("--paper", help="The paper you will print it on.")] = DEFAULTS.paper,
    flip: Annotated[str, typer.Option("--flip", help="long or short: the edge your printer flips on.")] = "long",
    profile: Annotated[Path | None, typer.Option(
        "--profile", help="Apply this profile to the back page (to check it).")] = None,
) -> None:
    """Print a two-page duplex test sheet that measures your printer's back offset and rotation."""
    from carddb.errors import InputError
    from carddb.layout.impose import paper_size
    from carddb.layout.printer_profile import read_profile
    from carddb.paint.calibration import write_calibration

    if flip not in ("long", "short"):
        raise InputError(f"--flip must be long or short, not {flip!r}")
    size = paper_size(paper)
    applied = read_profile(profile) if profile else None
    path, check = write_calibration(out, size, flip, applied)
    typer.echo(f"{path}: {check.pages} pages ({size.name}, flip on the {flip} edge). Print both sides of one sheet "
               "at 100 %, read the four rulers against a light, then run 'carddb print profile'.")


@app.command("profile")
def profile_cmd(
    *,
    top: Annotated[float, typer.Option("--top", click_type=NUMBER, help="The number read on the TOP ruler.")],
    bottom: Annotated[float, typer.Option("--bottom", click_type=NUMBER, help="The number read on the BOTTOM ruler.")],
    left: Annotated[float, typer.Option("--left", click_type=NUMBER, help="The number read on the LEFT ruler.")],
    right: Annotated[float, typer.Option("--right", click_type=NUMBER, help="The number read on the RIGHT ruler.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="The printer profile to write (.toml).")],
    paper: Annotated[str, typer.Option(
        "--paper", help="The paper the calibration sheet was printed on.")] = DEFAULTS.paper,
    base: Annotated[Path | None, typer.Option(
        "--base", help="The profile the calibration sheet was printed with.")] = None,
    name: Annotated[str, typer.Option("--name", help="A name for the printer and paper.")] = "",
) -> None:
    """Turn the four calibration readings into a printer profile for --profile."""
    from carddb.layout.impose import paper_size
    from carddb.layout.printer_profile import profile_from_readings, read_profile
    from carddb.paint.calibration import write_profile

    w, h = sorted((paper_size(paper).width, paper_size(paper).height))
    previous = read_profile(base) if base else None
    made = profile_from_readings(w, h, top=top, bottom=bottom, left=left, right=right, base=previous, name=name)
    write_profile(out, made)
    typer.echo(f"{out}: backs move {made.back_offset[0]:g} mm right, {made.back_offset[1]:g} mm up, and turn "
               f"{made.back_rotation:g} degrees counter-clockwise. Use it with --profile {out}.")
