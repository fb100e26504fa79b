"""Everything the site generates, as plain data: docs path -> Markdown, site path -> bytes or a file to copy,
and the navigation. The MkDocs hook (``carddb.site.hook``) hands it to MkDocs; nothing here depends on MkDocs.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from carddb.core.cards.card import Card
from carddb.core.cards.slugs import slugify
from carddb.core.game.definition import GameDefinition
from carddb.core.search.query import search_index
from carddb.errors import CarddbError
from carddb.files.reading import read_deck_file, read_text_file
from carddb.layout.template import loaded_templates
from carddb.site import bundle, print_bundle
from carddb.site.card_data import GameCards, gallery_json, game_cards
from carddb.site.card_page import card_page
from carddb.site.checker_page import checker_page
from carddb.site.client_files import GameClients
from carddb.site.construction import construction_page, game_data_page
from carddb.site.decks_page import SampleDeck, decks_page
from carddb.site.gallery import gallery_page
from carddb.site.kit_files import with_kit_box
from carddb.site.markup import html_text, html_url, md_text
from carddb.site.online_page import online_page
from carddb.site.play_page import has_play_page, play_page
from carddb.site.policy import host_headers_rule
from carddb.site.rulebook_page import rulebook_page
from carddb.workspace import Workspace

ASSETS = "assets/carddb"
#: Cache lifetimes for static hosts that read a ``_headers`` file (Netlify, Cloudflare Pages): the engine's
#: files carry a version or content hash in their names, so a browser may keep them; the manifest never.
HOST_HEADERS = """/assets/pyodide/*
  Cache-Control: public, max-age=31536000, immutable
/assets/carddb/*
  Cache-Control: public, max-age=31536000, immutable
/assets/carddb/manifest.json
  Cache-Control: no-cache
"""
#: Hand-written guides of the repository's ``docs/`` folder, in the order the navigation lists them.
GUIDE_ORDER = ("card-files.md", "search.md", "game-definition.md")


class CatalogueLike(Protocol):
    def games(self) -> list[str]: ...
    def cards(self, game_id: str) -> list[Card]: ...
    def game(self, game_id: str) -> GameDefinition: ...


#: Checks one deck as ``carddb deck check --json`` does: (game TOML, cards JSON, deck text, format, filename).
DeckChecker = Callable[[str, str, str, str | None, str], str]
#: A game's online client files on the site, and the site's address: (game, its cards) -> (files, site_url).
ClientsOf = Callable[[GameDefinition, list[Card]], tuple[GameClients, str]]


@dataclass
class SiteContent:
    pages: dict[str, str] = field(default_factory=dict)  # docs path -> Markdown
    data: dict[str, bytes] = field(default_factory=dict)  # site path -> bytes
    copies: dict[str, Path] = field(default_factory=dict)  # site path -> file to copy (large or binary)
    #: site path -> the key a copy's bytes were made from, where a manifest says it (an export's images): the
    #: site's own key of the file, instead of reading it (each export links its kept images anew, a new status)
    copy_keys: dict[str, str] = field(default_factory=dict)
    #: site path -> print-and-play kit: no file of MkDocs' nor of the site's manifest; linked into the built site
    #: as it is (``carddb.site.kit_files``: the build's kit step makes the kits after the site)
    kits: dict[str, Path] = field(default_factory=dict)
    nav: list[Any] = field(default_factory=list)
    games: list[str] = field(default_factory=list)
    cards: int = 0
    faces: int = 0
    decks: int = 0


def generate(root: Path, catalogue: CatalogueLike, game_ids: Sequence[str], *, package_root: Path,
             pyodide: bundle.Pyodide, faces: Callable[[str, str | None], Path | None],
             check_deck_json: DeckChecker, clients: ClientsOf | None = None,
             kits: Callable[[str], dict[str, Path]] | None = None) -> SiteContent:
    """The whole generated site for the workspace at ``root``.

    ``faces(game_id, stem)`` gives the rendered face of the card with that file-name stem (None when there is
    none; ``stem`` None: the game's back); ``check_deck_json`` gives the sample decks their verdicts, the same
    function the browser calls. A card's page and face are named by its stem (``carddb.core.cards.slugs``).
    ``clients(game, cards)`` gives the game's online client files and the site's address (None: no such page).
    ``kits(game_id)`` gives the game's print-and-play kits (site path -> PDF), offered on its rulebook page.
    """
    content = SiteContent(games=list(game_ids))
    games = [catalogue.game(g) for g in game_ids]
    deck_games = [g for g in games if g.deck_game]
    folder, made, copied = bundle.engine_files(pyodide)
    manifest: dict[str, Any] = {"pyodide": f"assets/pyodide/{folder}/", "pyodide_version": pyodide.version,
                                "games": {}}
    for name, data in made.items():
        content.data[f"assets/pyodide/{folder}/{name}"] = data
    for name, path in copied.items():
        content.copies[f"assets/pyodide/{folder}/{name}"] = path
    package = bundle.rules_zip(package_root)
    manifest["package"] = f"{ASSETS}/carddb-rules-{bundle.short_hash(package)}.zip"
    content.data[manifest["package"]] = package
    printing = print_bundle.print_zip(package_root, root, game_ids)
    manifest["print"] = f"{ASSETS}/carddb-print-{bundle.short_hash(printing)}.zip"
    content.data[manifest["print"]] = printing
    backs: dict[str, str] = {}

    for game in games:
        cards = catalogue.cards(game.id)
        toml_text = read_text_file(root / "rules" / game.id / "game.toml", what="game definition")
        cards_text = bundle.cards_json(cards)
        toml_path = f"{ASSETS}/{game.id}/game-{bundle.short_hash(toml_text.encode())}.toml"
        cards_path = f"{ASSETS}/{game.id}/cards-{bundle.short_hash(cards_text.encode())}.json"
        content.data[toml_path] = toml_text.encode()
        content.data[cards_path] = cards_text.encode()
        decks = _sample_decks(root, game, toml_text, cards_text, check_deck_json) if game.deck_game else []
        for deck in decks:
            content.data[deck.asset] = deck.text.encode()
        manifest["games"][game.id] = bundle.game_entry(game, toml_path, cards_path,
                                                       {d.filename: d.asset for d in decks})
        data = game_cards(game, cards)
        for card in cards:
            face = faces(game.id, data.stems[card.key])
            if face is not None:
                site_path = f"assets/faces/{game.id}/{face.name}"
                content.copies[site_path] = face
                data.faces[card.key] = site_path
        back = faces(game.id, None)
        if back is not None:
            content.copies[f"assets/faces/{game.id}/{back.name}"] = back
            backs[game.id] = f"assets/faces/{game.id}/{back.name}"
        gallery_text = gallery_json(data)
        gallery_path = f"{ASSETS}/{game.id}/gallery-{bundle.short_hash(gallery_text.encode())}.json"
        content.data[gallery_path] = gallery_text.encode()
        manifest["games"][game.id]["gallery"] = gallery_path
        # What the gallery's search box answers from at once, while the rules engine loads (quicksearch.js)
        index_text = json.dumps(search_index(cards, game.fields, {s.code: s.name for s in game.sets}),
                                ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        index_path = f"{ASSETS}/{game.id}/search-{bundle.short_hash(index_text.encode())}.json"
        content.data[index_path] = index_text.encode()
        manifest["games"][game.id]["search"] = index_path
        content.cards += len(cards)
        content.faces += len(data.faces)
        content.decks += len(decks)
        # MkDocs' navigation titles are HTML (Material writes them unescaped)
        content.nav.append({html_text(game.name): _game_pages(content, root, data, decks, deck_games)})
        if clients is not None:
            _online(content, game, cards, clients)
        rulebook_page = f"games/{game.id}/rulebook.md"
        if kits is not None and rulebook_page in content.pages:
            offered = kits(game.id)
            content.kits.update(offered)
            content.pages[rulebook_page] = with_kit_box(content.pages[rulebook_page], game.name, offered, rulebook_page)

    content.data[f"{ASSETS}/manifest.json"] = json.dumps(manifest, indent=1, sort_keys=True).encode()
    content.data["_headers"] = (host_headers_rule() + HOST_HEADERS).encode()
    content.pages["index.md"] = _home(root, games, backs)
    content.nav.insert(0, {"Home": "index.md"})
    content.nav.append({"Guide": _guides(root, content)})
    content.nav.append({"About": "about.md"})
    return content


def _game_pages(content: SiteContent, root: Path, data: GameCards, decks: list[SampleDeck],
                deck_games: list[GameDefinition]) -> list[dict[str, str]]:
    game, cards = data.game, data.cards
    base = f"games/{game.id}"
    rulebook = root / "rules" / game.id / game.rulebook
    nav = []
    if rulebook.is_file():
        content.pages[f"{base}/rulebook.md"] = _rulebook(root, rulebook, data, f"{base}/rulebook.md")
        nav.append({"Rulebook": f"{base}/rulebook.md"})
    if game.deck_game:
        content.pages[f"{base}/construction.md"] = construction_page(game, cards, f"{base}/construction.md")
        nav.append({"Deck construction": f"{base}/construction.md"})
    else:
        content.pages[f"{base}/construction.md"] = game_data_page(game, f"{base}/construction.md")
        nav.append({"Game data": f"{base}/construction.md"})
    content.pages[f"{base}/cards.md"] = gallery_page(data, f"{base}/cards.md")
    nav.append({"Cards": f"{base}/cards.md"})
    for index, card in enumerate(cards):
        content.pages[data.page(card)] = card_page(data, card, cards[index - 1] if index else None,
                                                   cards[index + 1] if index + 1 < len(cards) else None)
    if game.deck_game:
        content.pages[f"{base}/checker.md"] = checker_page(game, deck_games)
        nav.append({"Deck builder": f"{base}/checker.md"})
    elif has_play_page(game):  # a game without decks: its helpers' forms stand in for the deck builder
        content.pages[f"{base}/checker.md"] = play_page(game, cards, f"{base}/checker.md")
        nav.append({"Turn calculator": f"{base}/checker.md"})
    if decks:
        content.pages[f"{base}/decks.md"] = decks_page(game, decks, f"{base}/decks.md")
        nav.append({"Sample decks": f"{base}/decks.md"})
    if game.deck_game and has_play_page(game):
        content.pages[f"{base}/play.md"] = play_page(game, cards, f"{base}/play.md")
        nav.append({"Play": f"{base}/play.md"})
    return nav


def _online(content: SiteContent, game: GameDefinition, cards: list[Card], clients: ClientsOf) -> None:
    """The game's client files and its "Play online" page, last in its navigation."""
    files, site_url = clients(game, cards)
    content.data.update(files.data)
    content.copies.update(files.copies)
    content.copy_keys.update(files.keys)
    page = f"games/{game.id}/online.md"
    content.pages[page] = online_page(game, files, page, site_url)
    content.nav[-1][html_text(game.name)].append({"Play online": page})


def _rulebook(root: Path, rulebook: Path, data: GameCards, path: str) -> str:
    """The rulebook page, its card anatomy drawn from the templates: made again only when the rulebook, the
    game, its cards or its template files changed (compiling a game's templates cost a tenth of a second, for
    each game, in every site build)."""
    from carddb.incremental import code_digest, digest, files_digest, remembered
    from carddb.layout.sources import template_files

    text = rulebook.read_text(encoding="utf-8")
    game = data.game
    key = digest("rulebook-page", code_digest(), path, text, game.raw, files_digest(template_files(root, game.id)),
                 [card.to_dict() for card in data.cards], data.stems, data.faces)

    def make() -> bytes:
        try:
            templates = loaded_templates(root, game)
        except CarddbError:  # a game without (working) templates: its rulebook as written
            templates = None
        return rulebook_page(text, data, templates, path).encode("utf-8")

    return remembered(key, make).decode("utf-8")


def _sample_decks(root: Path, game: GameDefinition, toml_text: str, cards_text: str,
                  check: DeckChecker) -> list[SampleDeck]:
    """The game's sample decks with their verdicts: checked again only when the game, its cards, a deck or the
    checker changed (a tenth of a second for a game, in every site build, for what a card change rarely moves)."""
    from carddb.incremental import code_digest, digest, remembered

    found = [(path.name, read_deck_file(path)) for path in Workspace(root).deck_files(game.id)]

    def verdicts() -> bytes:
        return json.dumps([json.loads(check(toml_text, cards_text, text, None, name)) for name, text in found],
                          ensure_ascii=False).encode("utf-8")

    results = json.loads(remembered(digest("sample-decks", code_digest(), toml_text, cards_text, found), verdicts))
    decks = []
    for index, ((name, text), result) in enumerate(zip(found, results, strict=True)):
        asset = f"assets/decks/{game.id}/{index:02d}-{slugify(Path(name).stem)}{Path(name).suffix.lower()}"
        decks.append(SampleDeck(filename=name, text=text, asset=asset, result=result))  # asset: not versioned
    return decks


def _guides(root: Path, content: SiteContent) -> list[dict[str, str]]:
    nav = [{"Command line": "guide/command-line.md"}]
    docs = root / "docs"
    found = sorted(docs.glob("*.md")) if docs.is_dir() else []
    found.sort(key=lambda p: (GUIDE_ORDER.index(p.name) if p.name in GUIDE_ORDER else len(GUIDE_ORDER), p.name))
    for path in found:
        text = path.read_text(encoding="utf-8")
        content.pages[f"guide/{path.name}"] = text
        nav.append({_title(text, path.stem): f"guide/{path.name}"})
    images = docs / "images"
    for path in sorted(images.iterdir()) if images.is_dir() else []:  # the guides' pictures (docs/images/)
        if path.suffix.lower() in (".png", ".jpg", ".jpeg", ".svg") and path.is_file():
            content.copies[f"guide/images/{path.name}"] = path
    return nav


def _title(markdown: str, fallback: str) -> str:
    for line in markdown.splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return fallback.replace("-", " ").capitalize()


ABBREVIATIONS = frozenset({"Bros", "Mr", "Mrs", "Ms", "Dr", "St", "Jr", "vs", "etc", "No", "Vol"})


def pitch(rulebook: Path) -> str:
    """The first sentence of a rulebook's first paragraph (its one-line pitch), Markdown emphasis removed."""
    try:
        text = rulebook.read_text(encoding="utf-8")
    except OSError:
        return ""
    paragraph = next((block for block in text.split("\n\n") if block.strip() and not block.lstrip().startswith(
        ("#", "|", "!", "<", "-", "*", ">"))), "")
    flat = re.sub(r"[*_`]", "", " ".join(paragraph.split()))
    for end in re.finditer(r"(\w+)([.!?])(?=\s|$)", flat):
        # a sentence of some length, not cut after an abbreviation ("Super Smash Bros. Melee", "Mr. Game")
        if end.end() >= 60 and not (end[2] == "." and end[1] in ABBREVIATIONS):
            return flat[:end.end()]
    return flat


def _home(root: Path, games: list[GameDefinition], backs: dict[str, str]) -> str:
    out = ["---", "hide:", "  - navigation", "  - toc", "---", "", "# Fan card games", "",
           "Rulebooks, card galleries, deck builders and printable proxies for five fan-made card games, generated "
           "by carddb from each game's definition and catalogue. The deck builders check your deck in your browser "
           "with the same rules engine as the `carddb` command line; nothing is sent anywhere.", "",
           '<div class="carddb-home carddb-wide" markdown>', ""]
    for game in games:
        base = f"games/{game.id}"
        back = backs.get(game.id)
        # Without a rendered back there is no picture to link (an empty link says nothing to a screen reader).
        picture = (f'<a class="carddb-back" href="{html_url(base + "/cards/")}"><img src="{html_url(back)}" '
                   f'alt="{html_text(game.name)} card back" width="200"></a>' if back else "")
        tool = "deck builder" if game.deck_game else "turn calculator"
        out += ['<div class="carddb-game" markdown>', "",
                picture, "",
                f"### {md_text(game.name)}", "",
                md_text(pitch(root / "rules" / game.id / game.rulebook)), "",
                f"[Rulebook]({base}/rulebook.md) · [{'Deck construction' if game.deck_game else 'Game data'}]"
                f"({base}/construction.md) · [Cards]({base}/cards.md) · [{tool.capitalize()}]({base}/checker.md)",
                "", "</div>", ""]
    out += ["</div>", "", "New to the tool? Start with the [command line guide](guide/command-line.md).", ""]
    return "\n".join(out)
