"""The kit as a step of ``carddb build``: each game's kit on A4 and on Letter, into ``output/kit/<game>/<paper>/``,
for the site to offer. Incremental like the sheets (``carddb.incremental``): a paper's kit is a part whose key
digests carddb's code, the game's definition, its rulebook and construction tables, its deck files and the face
key of every card it prints and of the back; a kit whose key is unchanged is kept. A kit made again takes what did
not change from the build's cache (``carddb.kit.make``: the rulebook typeset, each deck's sheets, the checks of the
parts), so its cost follows the decks that hold a changed card. The step runs beside the site, after the proxy
sheets (which print the kits' decks into the cache), its papers at once on the build's pool; the site offers the
kits without waiting for them (``carddb.site.kit_files``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from carddb.core.cards.slugs import slugify
from carddb.site.kit_files import KIT_PAPERS, kit_file

#: The layers a kit is made by (the construction tables come from the site's pages).
KIT_LAYERS = ("core", "layout", "paint", "site", "kit")


@dataclass
class KitBuild:
    """What the build's kit step did for one game: the kit of each paper, and which were made again (and why)."""

    kits: dict[str, Path] = field(default_factory=dict)  # paper -> the kit's PDF
    made: list[str] = field(default_factory=list)
    reasons: dict[str, list[str]] = field(default_factory=dict)


@dataclass(frozen=True)
class _PaperTask:
    """One paper's kit, as sent to the pool: what ``make_kit`` is given."""

    root: Path
    game: Any
    cards: Any
    out_dir: Path
    paper: str
    decks: Any


def _make_paper(task: _PaperTask) -> str:
    """Make one paper's kit (on a pool's worker, inside the build's cache: ``map_with_cache_keys``)."""
    from carddb.kit.make import KitOptions, make_kit

    make_kit(task.root, task.game, task.cards, task.out_dir, KitOptions(paper=task.paper), decks=task.decks)
    return task.paper


def build_game_kits(workspace: Any, catalogue: Any, game_id: str, kit_dir: str | Path,
                    pool: Any = None) -> KitBuild:
    """Bring ``game_id``'s kits under ``kit_dir`` up to date: the papers made again are made at once, on ``pool``
    (the build's; else a pool of its own)."""
    from carddb.incremental import MANIFEST, Manifest, Plan, code_sources, files_digest, game_sources, short
    from carddb.kit.decks import sample_decks
    from carddb.kit.style import font_files
    from carddb.paint.render import FaceKeys
    from carddb.site.construction import construction_page, game_data_page

    game = catalogue.game(game_id)
    cards = catalogue.cards(game_id)
    folder = Path(kit_dir) / slugify(game_id)
    folder.mkdir(parents=True, exist_ok=True)
    root = Path(workspace.root)
    deck_files = workspace.deck_files(game_id)
    faces = FaceKeys(root, game, 0, "pdf")
    decks = sample_decks(deck_files, game, cards)
    # A card is in the kit when a printed deck holds it or the construction tables name it: any other card's
    # change leaves the kit as it is.
    printed = {card.key: card for deck in decks for card in deck.cards}
    page = f"games/{game_id}/construction.md"
    previous = Manifest.read(folder / MANIFEST)
    plan = Plan(previous, {
        **code_sources(KIT_LAYERS), **game_sources(game.raw),
        "rulebook": files_digest([root / "rules" / game_id / game.rulebook]),
        "fonts": files_digest(font_files()),
        "decks": files_digest(deck_files, relative_to=root),
        "faces": short([faces.face(card) for _, card in sorted(printed.items())], faces.face(None)),
        "construction tables": short(construction_page(game, cards, page) if game.deck_game
                                     else game_data_page(game, page)),
    })
    done = KitBuild()
    for paper in KIT_PAPERS:
        target = kit_file(kit_dir, game_id, paper)
        plan.add(paper, {"paper": paper}, exists=target.is_file())
        done.kits[paper] = target
    if plan.todo:
        from carddb.incremental import map_with_cache_keys
        from carddb.workers import worker_pool

        tasks = [_PaperTask(root, game, cards, done.kits[paper].parent, paper, decks) for paper in plan.todo]
        with worker_pool(pool) as workers:  # both papers at once, each a second or more of pypdf and checks
            for paper, cache_keys in map_with_cache_keys(workers, _make_paper, tasks, shared_from=2):
                plan.made(paper, cache_keys=cache_keys)
                done.made.append(paper)
                done.reasons[paper] = plan.reasons[paper]
    if plan.changed:
        plan.new.write(folder / MANIFEST)
    return done
