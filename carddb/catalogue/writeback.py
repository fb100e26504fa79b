"""Writing catalogue cards back into the workspace's card files: ``carddb cards write-back``.

The cards written are those that do not come from a card file (imported, edited in the catalogue, of unknown
source), or those of one source. A card a card file already holds (the same name and qualifier) replaces its
entry there; another goes into the card file named after its source (``mycards.csv`` -> ``mycards.yaml``;
an edit or an unknown source: the file of its set), appended, or a new file. Everything else in a file stays
as it is: YAML entries are replaced and added in place, in the file's own style (``carddb.catalogue.yaml_style``),
so comments, order and the other cards' text are kept (a file too unusual for that, and a CSV file, is written
whole from its cards). Every file is checked by reading it back before it is written, then replaced whole (a
temporary file, then a rename). Then the cards' source becomes the file, so the next ``carddb build`` has
nothing to change.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from carddb.catalogue import cardfiles
from carddb.catalogue.provenance import IMPORT, UNKNOWN, WORKSPACE, Source, fingerprint, now
from carddb.catalogue.store import identity, set_sources, stored_cards
from carddb.catalogue.validate import build_cards_with_origins
from carddb.catalogue.workspace_cards import WorkspaceGame, read_workspace_game
from carddb.catalogue.yaml_style import FileStyle, last_line, parse
from carddb.core.cards.card import Card
from carddb.core.cards.slugs import slugify
from carddb.core.game.definition import GameDefinition
from carddb.errors import InputError, NotFoundError
from carddb.files.reading import read_text_file
from carddb.workspace import Workspace

if TYPE_CHECKING:
    from carddb.catalogue.api import Catalogue
    from carddb.catalogue.load import LoadReport


@dataclass
class FileChange:
    path: str  # from the workspace root
    replaced: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    created: bool = False
    whole: bool = False  # written whole from its cards, not edited in place


@dataclass
class WriteBackReport:
    game: str
    folder: Path
    files: list[FileChange] = field(default_factory=list)
    in_workspace: bool = True
    changed_meanwhile: list[str] = field(default_factory=list)  # written, but changed in the catalogue since
    pending: LoadReport | None = None  # what a build would load from the files now, before the write-back

    @property
    def cards(self) -> int:
        return sum(len(f.replaced) + len(f.added) for f in self.files)


def write_back(catalogue: Catalogue, workspace: Workspace, game_id: str, *, source: str | None = None,
               out: str | Path | None = None) -> WriteBackReport:
    found = read_workspace_game(workspace, game_id)  # the files must read cleanly before any is rewritten
    game = found.game
    cards_dir = workspace.game_dir(game_id) / "cards"
    target = Path(out).resolve() if out is not None else cards_dir
    if target.exists() and not target.is_dir():
        raise InputError(f"{target} is a file; --out takes the folder the card files go in")
    in_workspace = target == cards_dir.resolve()
    report = WriteBackReport(game_id, target, in_workspace=in_workspace)
    report.pending = catalogue.pending_load(workspace, game_id)
    sources = catalogue.sources(game_id)
    chosen = _chosen(catalogue.cards(game_id), sources, source, game_id)
    if not chosen:
        return report
    plan = _plan(workspace, found, chosen, sources)
    texts: dict[str, str] = {}
    expected: dict[str, list[Card]] = {}
    for path, edit in plan.items():
        texts[path], expected[path], whole = _new_text(workspace, game, found, path, edit)
        change = FileChange(path, [c.key for c in edit.replace], [c.key for c in edit.add],
                            created=not (workspace.root / path).exists(), whole=whole)
        report.files.append(change)
    _check(workspace, game, found, texts, expected)
    from carddb.files.replacing import write_file

    written_at = now()
    for path, text in texts.items():
        write_file(target / Path(path).name, text)
    if in_workspace:
        written = {path: [*edit.replace, *edit.add] for path, edit in plan.items()}
        report.changed_meanwhile = _adopt(catalogue, game_id, written, written_at)
    return report


def _chosen(cards: list[Card], sources: dict[tuple[str, str], Source], source: str | None,
            game_id: str) -> list[Card]:
    """The cards to write: of one source, else every card that does not come from a card file."""
    if source is None:
        return [card for card in cards if sources[identity(card)].kind != WORKSPACE]
    wanted = source.replace("\\", "/")
    chosen = [card for card in cards if sources[identity(card)].name in (wanted, Path(wanted).name)
              or Path(sources[identity(card)].name).name == wanted]
    if not chosen:
        named = sorted({s.name for s in sources.values() if s.name})
        raise NotFoundError(f"no card of {game_id} comes from {source!r} (sources: {', '.join(named) or 'none'})")
    return chosen


@dataclass
class _Edit:
    replace: list[Card] = field(default_factory=list)
    add: list[Card] = field(default_factory=list)


def _plan(workspace: Workspace, found: WorkspaceGame, chosen: list[Card],
          sources: dict[tuple[str, str], Source]) -> dict[str, _Edit]:
    in_file = {identity(card): origin for card, origin in found.cards}
    cards_dir = workspace.game_dir(found.game.id) / "cards"
    existing = {slugify(Path(name).stem): name for name in found.files}
    plan: dict[str, _Edit] = {}
    for card in chosen:
        key = identity(card)
        if key in in_file:
            plan.setdefault(in_file[key], _Edit()).replace.append(card)
            continue
        stem = _file_stem(card, sources[key])
        path = existing.get(stem) or (cards_dir / f"{stem}.yaml").relative_to(workspace.root).as_posix()
        plan.setdefault(path, _Edit()).add.append(card)
    return plan


def _file_stem(card: Card, source: Source) -> str:
    """The card file a card with no file goes into: its own file's (a card file or an import), else its set's."""
    if source.kind in (WORKSPACE, IMPORT) and source.name:
        return slugify(Path(source.name).stem)
    return slugify(card.printings[0].set) if card.printings else "cards"


def _new_text(workspace: Workspace, game: GameDefinition, found: WorkspaceGame, path: str,
              edit: _Edit) -> tuple[str, list[Card], bool]:
    """The file's new text, the cards it must hold, and whether it was written whole."""
    current = [card for card, origin in found.cards if origin == path]
    replacing = {identity(card): card for card in edit.replace}
    cards = [replacing.get(identity(card), card) for card in current] + edit.add
    file = workspace.root / path
    if not file.exists():
        return cardfiles.cards_to_yaml(game, cards), cards, True
    text = read_text_file(file, what="card file")
    if file.suffix.lower() in (".yaml", ".yml"):
        edited = _edit_yaml(game, text, current, replacing, edit.add)
        if edited is not None and _cards_of(game, edited, path) == cards:
            return edited, cards, False
        return cardfiles.cards_to_yaml(game, cards), cards, True
    return cardfiles.cards_to_csv(game, cards), cards, True


def _edit_yaml(game: GameDefinition, text: str, current: list[Card], replacing: dict[tuple[str, str], Card],
               add: list[Card]) -> str | None:
    """The YAML text with the entries of ``replacing`` replaced and ``add`` appended after the last entry,
    every other line as it was; None when the file's layout is not one to edit in place."""
    parsed = parse(text)
    entries = parsed[1]
    if entries is None or entries.flow_style or not entries.value or len(entries.value) != len(current):
        return None
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += FileStyle.ending(text)
    spans = []
    for node in entries.value:
        first, last = node.start_mark.line, last_line(node)
        dash = lines[first][:node.start_mark.column]
        if dash.strip() != "-" or last < first:
            return None  # the entry does not start on its "- " line
        spans.append((first, last, len(dash) - len(dash.lstrip(" "))))
    indent = spans[-1][2]
    style = FileStyle.of(text, parsed)
    pieces = {first: (last, style.items(game, [replacing[identity(card)]], indent))
              for (first, last, indent), card in zip(spans, current, strict=True) if identity(card) in replacing}
    out: list[str] = []
    line = 0
    while line < len(lines):
        if line in pieces:
            last, new = pieces[line]
            out.append(new)
            line = last + 1
            continue
        out.append(lines[line])
        if line == spans[-1][1] and add:
            out.append(style.items(game, add, indent))
        line += 1
    return "".join(out)


def _cards_of(game: GameDefinition, text: str, path: str) -> list[Card]:
    _named, raws = cardfiles.read_card_text(text, path)
    for raw in raws:
        raw.origin = path
    return [card for card, _ in build_cards_with_origins(game, raws, path)]


def _check(workspace: Workspace, game: GameDefinition, found: WorkspaceGame, texts: dict[str, str],
           expected: dict[str, list[Card]]) -> None:
    """Read every new file back: it must hold exactly its cards, and the game's files together no card twice."""
    cards: list[tuple[Card, str]] = [(card, origin) for card, origin in found.cards if origin not in texts]
    for path, text in texts.items():
        read = _cards_of(game, text, path)
        if [fingerprint(c) for c in read] != [fingerprint(c) for c in expected[path]]:
            raise InputError(f"{path}: the written file would not read back as the catalogue's cards; "
                             "nothing was written (please report this)")
        cards.extend((card, path) for card in read)
    seen: dict[tuple[str, str], str] = {}
    for card, origin in cards:
        if identity(card) in seen and seen[identity(card)] != origin:
            raise InputError(f"{card.key} would be in both {seen[identity(card)]} and {origin}; nothing was written")
        seen[identity(card)] = origin


def _adopt(catalogue: Catalogue, game_id: str, written: dict[str, list[Card]], at: datetime) -> list[str]:
    """The written cards now come from their files (one transaction); a card changed in the catalogue
    meanwhile keeps its source, so the next build names it instead of taking the file's copy silently."""
    meanwhile = []
    with catalogue.transaction() as session:
        stored = stored_cards(session, game_id)
        changes = []
        for path, cards in written.items():
            for card in cards:
                held = stored.get(identity(card))
                fp = fingerprint(card)
                if held is None or (held.source.fingerprint != fp and held.source.kind != UNKNOWN):
                    meanwhile.append(card.key)
                elif held.source.kind != WORKSPACE or held.source.name != path:
                    changes.append((held.id, Source(WORKSPACE, path, at, fp)))
        set_sources(session, changes)
    return meanwhile
