"""``carddb export lackey|apprentice|tts|cockatrice|printshop``: the game for LackeyCCG, Apprentice, Tabletop
Simulator, Cockatrice or a print shop."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from carddb.cli.common import state
from carddb.cli.parsing import group, workspace_game

app = group(help="Export a game for LackeyCCG, Apprentice, Tabletop Simulator or Cockatrice.")


def print_report(st, report) -> None:  # type: ignore[no-untyped-def]
    for line in report.summary().splitlines():
        if line.startswith("warning:"):
            typer.echo(line, err=True)
        else:
            st.say(line)


@app.command("lackey")
def lackey(
    ctx: typer.Context,
    *,
    game: Annotated[str | None, typer.Option(
        "--game", "-g", callback=workspace_game, help="The game to export.")] = None,
    out: Annotated[Path, typer.Option("--out", "-o", help="Output folder; the plugin goes in <out>/<plugin name>/.")],
    base_url: Annotated[str | None, typer.Option(
        "--base-url", help="Where the plugin folder will be published: adds updatelist.txt and version.txt so "
             "players install it from <base-url>/updatelist.txt (default: the game's [lackey] "
             "base_url, if it has one).")] = None,
    zip_: Annotated[bool, typer.Option("--zip", help="Also write <out>/<plugin name>.zip.")] = False,
) -> None:
    """Write a LackeyCCG plugin folder (rendering missing card faces first)."""
    from carddb.exporters.lackey import export_lackey

    st = state(ctx)
    workspace = st.workspace
    workspace.game_dir(game)
    catalogue = st.catalogue()
    with st.progress() as progress, progress.task(f"Exporting {game} for LackeyCCG"):
        report = export_lackey(workspace.root, catalogue, game, out, base_url=base_url, zip=zip_,
                               faces_dir=workspace.output_dir / "faces")
    print_report(st, report)
    base_url = base_url or catalogue.game(game).lackey.get("base_url")  # the game may declare where it is hosted
    st.say(f"Install: copy {report.root} into LackeyCCG's plugins/ folder"
               + (f", or give players {base_url.rstrip('/')}/updatelist.txt" if base_url else "") + ".")


@app.command("apprentice")
def apprentice(
    ctx: typer.Context,
    *,
    game: Annotated[str | None, typer.Option(
        "--game", "-g", callback=workspace_game, help="The game to export.")] = None,
    out: Annotated[Path, typer.Option("--out", "-o", help="Output folder for Sets/cardinfo.dat, Expan.dat, decks.")],
) -> None:
    """Write an Apprentice patch: Sets/cardinfo.dat, Expan.dat, .dec decks and spoiler lists."""
    from carddb.exporters.apprentice import export_apprentice

    st = state(ctx)
    workspace = st.workspace
    workspace.game_dir(game)
    with st.progress() as progress, progress.task(f"Exporting {game} for Apprentice"):
        report = export_apprentice(workspace.root, st.catalogue(), game, out)
    print_report(st, report)
    st.say(f"Install: copy Sets/cardinfo.dat and Expan.dat from {out} into the Apprentice folder "
               f"(back up the originals first).")


@app.command("tts")
def tts(
    ctx: typer.Context,
    *,
    game: Annotated[str | None, typer.Option(
        "--game", "-g", callback=workspace_game, help="The game to export.")] = None,
    out: Annotated[Path, typer.Option("--out", "-o", help="Output folder: saved objects (.json + .png) and sheets/.")],
    base_url: Annotated[str | None, typer.Option(
        "--base-url", help="Where the folder will be published: image URLs point there (for multiplayer) instead of "
             "file:/// paths of the folder.")] = None,
    deck: Annotated[Path | None, typer.Option(
        "--deck", help="Export this deck (any format deck check reads) instead of the sample decks.")] = None,
) -> None:
    """Write Tabletop Simulator saved objects: one per deck and one per set, with deck sheets."""
    from carddb.exporters.tts import export_tts
    from carddb.files.reading import read_deck_file

    st = state(ctx)
    workspace = st.workspace
    workspace.game_dir(game)
    deck_text = (read_deck_file(deck), deck.name) if deck is not None else None
    with st.progress() as progress, progress.task(f"Exporting {game} for Tabletop Simulator"):
        report = export_tts(workspace.root, st.catalogue(), game, out, base_url=base_url, deck_text=deck_text,
                            faces_dir=workspace.output_dir / "faces")
    print_report(st, report)
    st.say(tts_install(report.root, base_url))


def tts_install(root: Path, base_url: str | None) -> str:
    if base_url:
        return (f"Install: publish {root} at {base_url.rstrip('/')}/, then copy it into Tabletop Simulator's "
                f"Saves/Saved Objects/ folder.")
    return (f"Install: copy {root} into Tabletop Simulator's Saves/Saved Objects/ folder; the images stay in "
            f"{root}, so keep it there (or export with --base-url for other players).")


@app.command("cockatrice")
def cockatrice(
    ctx: typer.Context,
    *,
    game: Annotated[str | None, typer.Option(
        "--game", "-g", callback=workspace_game, help="The game to export.")] = None,
    out: Annotated[Path, typer.Option("--out", "-o", help="Output folder: customsets/, pics/CUSTOM/ and decks/.")],
) -> None:
    """Write a Cockatrice custom card database with its pictures and the sample decks (.cod)."""
    from carddb.exporters.cockatrice import export_cockatrice

    st = state(ctx)
    workspace = st.workspace
    workspace.game_dir(game)
    with st.progress() as progress, progress.task(f"Exporting {game} for Cockatrice"):
        report = export_cockatrice(workspace.root, st.catalogue(), game, out,
                                   faces_dir=workspace.output_dir / "faces")
    print_report(st, report)
    st.say(f"Install: copy the contents of {out} into Cockatrice's data folder (customsets/, pics/, decks/); "
               f"docs/exports.md says where it is on each system.")


@app.command("printshop")
def printshop(
    ctx: typer.Context,
    *,
    service: Annotated[str | None, typer.Option(
        "--service", "-s", help="makeplayingcards, thegamecrafter, drivethrucards or generic (without it: the "
        "list).")] = None,
    game: Annotated[str | None, typer.Option(
        "--game", "-g", callback=workspace_game, help="The game to export.")] = None,
    out: Annotated[Path, typer.Option("--out", "-o", help="Output folder: fronts/, back, cards.pdf, order.csv.")],
    deck: Annotated[Path | None, typer.Option(
        "--deck", help="Export this deck with its counts (any format deck check reads) instead of "
                       "every card once.")] = None,
    card: Annotated[str | None, typer.Option(
        "--card", help="Card size (poker, 63x88, 2.5x3.5in); default: the game's.")] = None,
) -> None:
    """Write a print shop's files: card images at its pixel size with bleed, a one-card-a-page PDF."""
    from carddb.exporters.printshop import export_printshop
    from carddb.exporters.printshop.services import service_named
    from carddb.files.reading import read_deck_file

    st = state(ctx)
    shop = service_named(service)  # a wrong name is said before anything is read
    workspace = st.workspace
    workspace.game_dir(game)
    deck_text = (read_deck_file(deck), deck.name) if deck is not None else None
    with st.progress() as progress, progress.task(f"Exporting {game} for {shop.name}") as task:
        report = export_printshop(workspace.root, st.catalogue(), game, out, service=shop.id, deck_text=deck_text,
                                  card=card, progress=task)
    print_report(st, report)
    st.say(f"Upload: {shop.upload}.")
