"""``carddb print``: proxy sheets from a deck list, a set or a whole game; duplex calibration; printer profiles.

    carddb print [DECKFILE] --game G [--set S] --out FILE.pdf [options]
    carddb print calibration --out FILE.pdf [--paper P] [--flip long|short] [--profile P]
    carddb print profile --top T --bottom B --left L --right R --out PRINTER.toml [--paper P] [--base OLD.toml]
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from carddb.cli.common import state
from carddb.cli.parsing import INTEGER, NUMBER, PATH, GameOption, Group, argument, option
from carddb.paint.print_options import DEFAULTS

DEFAULT_COMMAND = "sheets"


class PrintGroup(Group):
    """``carddb print DECKFILE ...`` runs the hidden ``sheets`` command; named subcommands run as usual."""

    default_command = DEFAULT_COMMAND

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args or (args[0] not in self.commands and args[0] not in ("--help", "-h")):
            args = [DEFAULT_COMMAND, *_bleed_alone(args)]
        return super().parse_args(ctx, args)

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
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


app = PrintGroup(no_args_is_help=False,
                 help="Print proxy sheets: 'carddb print [DECKFILE] --game G --out FILE.pdf'; "
                      "also 'print calibration' and 'print profile'.")


@app.command(DEFAULT_COMMAND, hidden=True,
             epilog="Double-sided sheets: 'carddb print calibration --help' (a duplex test sheet) and "
                    "'carddb print profile --help' (a printer profile from its four readings).")
@argument("deckfile", type=PATH, required=False,
          help="A deck list (or LackeyCCG .dek, Apprentice .dec); without it, one of every card of the game or "
               "--set.")
@option("--game", "-g", "game_id", cls=GameOption, required=True, help="The game the cards belong to.")
@option("--set", "-s", "set_code", help="Print one of every card of this set.")
@option("--out", "-o", type=PATH, required=True, help="The PDF to write.")
@option("--paper", default=DEFAULTS.paper, help="A4, Letter, Legal, A3, Tabloid or WxH (mm or in).")
@option("--card",
              help="poker, bridge, yugioh, euro, mini, mini-euro, tarot, square or WxH (mm or in); default: the "
                   "game's card size.")
@option("--orientation", default=DEFAULTS.orientation, help="auto (most cards a page), portrait, landscape.")
@option("--bleed", type=NUMBER,
              help="Bleed around each card in mm ('--bleed' alone: 3 mm; default: up to 1.5 mm, as much as leaves "
                   "room for the crop marks and costs no card a page).")
@option("--gutter", type=NUMBER, default=DEFAULTS.gutter, help="Space between cards in mm.")
@option("--margins",
              help="Unprintable edge in mm: 5, or 5,8, or top,right,bottom,left (default: the profile's, else 5).")
@option("--marks/--no-marks", default=DEFAULTS.marks, help="Crop marks outside the cards.")
@option("--layout", default=DEFAULTS.layout, help="fronts, duplex-long, duplex-short, fold or single.")
@option("--fold-margin", type=NUMBER, default=DEFAULTS.fold_margin,
        help="fold: mm kept clear each side of the fold line.")
@option("--header/--no-header", default=DEFAULTS.header, help="A line over the cards: deck, page n of m, side.")
@option("--deck-list", is_flag=True, help="Begin with a page listing the deck.")
@option("--raster", is_flag=True, help="Embed JPEG faces instead of vector faces.")
@option("--dpi", type=INTEGER, default=DEFAULTS.dpi, help="Resolution of --raster faces.")
@option("--profile", type=PATH, help="A printer profile (.toml) correcting duplex backs.")
@option("--max-mb", type=NUMBER, help="Split into several PDFs of at most this many MB.")
@option("--grid", help="Demand COLSxROWS cards a page (an error says why it cannot).")
@option("--strict", is_flag=True, default=DEFAULTS.strict,
        help="Fail when a card's art has fewer pixels than the print needs (default: warn).")
@click.pass_context
def sheets(
    ctx: click.Context,
    deckfile: Path,
    game_id: str,
    set_code: str,
    out: Path,
    paper: str,
    card: str,
    orientation: str,
    bleed: float,
    gutter: float,
    margins: str,
    marks: bool,
    layout: str,
    fold_margin: float,
    header: bool,
    deck_list: bool,
    raster: bool,
    dpi: int,
    profile: Path,
    max_mb: float,
    grid: str,
    strict: bool,
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
        click.echo(f"Not printed ({len(result.not_printed)}):", err=True)
        for item in result.not_printed:
            click.echo(f"  {item}", err=True)
    for warning in result.warnings:
        click.echo(f"warning: {warning}", err=True)


@app.command("calibration")
@option("--out", "-o", type=PATH, required=True, help="The calibration PDF to write.")
@option("--paper", default=DEFAULTS.paper, help="The paper you will print it on.")
@option("--flip", default="long", help="long or short: the edge your printer flips on.")
@option("--profile", type=PATH, help="Apply this profile to the back page (to check it).")
def calibration(
    out: Path,
    paper: str,
    flip: str,
    profile: Path,
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
    click.echo(f"{path}: {check.pages} pages ({size.name}, flip on the {flip} edge). Print both sides of one sheet "
               "at 100 %, read the four rulers against a light, then run 'carddb print profile'.")


@app.command("profile")
@option("--top", type=NUMBER, required=True, help="The number read on the TOP ruler.")
@option("--bottom", type=NUMBER, required=True, help="The number read on the BOTTOM ruler.")
@option("--left", type=NUMBER, required=True, help="The number read on the LEFT ruler.")
@option("--right", type=NUMBER, required=True, help="The number read on the RIGHT ruler.")
@option("--out", "-o", type=PATH, required=True, help="The printer profile to write (.toml).")
@option("--paper", default=DEFAULTS.paper, help="The paper the calibration sheet was printed on.")
@option("--base", type=PATH, help="The profile the calibration sheet was printed with.")
@option("--name", default="", help="A name for the printer and paper.")
def profile_cmd(
    top: float,
    bottom: float,
    left: float,
    right: float,
    out: Path,
    paper: str,
    base: Path,
    name: str,
) -> None:
    """Turn the four calibration readings into a printer profile for --profile."""
    from carddb.layout.impose import paper_size
    from carddb.layout.printer_profile import profile_from_readings, read_profile
    from carddb.paint.calibration import write_profile

    w, h = sorted((paper_size(paper).width, paper_size(paper).height))
    previous = read_profile(base) if base else None
    made = profile_from_readings(w, h, top=top, bottom=bottom, left=left, right=right, base=previous, name=name)
    write_profile(out, made)
    click.echo(f"{out}: backs move {made.back_offset[0]:g} mm right, {made.back_offset[1]:g} mm up, and turn "
               f"{made.back_rotation:g} degrees counter-clockwise. Use it with --profile {out}.")
