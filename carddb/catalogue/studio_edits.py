"""The card studio's edits: a card opened for editing, saved into the card file it came from, a new card, a copy,
a card deleted, and the last of these undone (``docs/studio.md``), also after the server is started again.

A card file is the truth: an edit changes its text (``carddb.catalogue.studio_text``: the card's lines, every
other line kept), reads the new text back with the rest of the game's files (the new file must hold exactly the
cards meant, and no card may be in two files), then replaces the file whole (``carddb.files``). A form carries
the digest of the file it was opened from; a file changed on disk since is a ``ConflictError``, never
overwritten. A card of the catalogue that no card file holds (an import) is saved into the catalogue, from
where ``carddb cards write-back`` writes it into a file. With a catalogue, a saved file is loaded into it at
once; ``carddb site serve``'s watcher loads it all the same and rebuilds only that card's parts.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from carddb.catalogue import studio_text
from carddb.catalogue.cardfiles import read_card_file, read_card_text
from carddb.catalogue.provenance import EDIT, fingerprint
from carddb.catalogue.studio_form import card_from_form, checked_values, form_fields, form_values
from carddb.catalogue.validate import build_cards_with_origins
from carddb.catalogue.workspace_cards import WorkspaceGame, read_workspace_game
from carddb.core.cards.card import Card, normalise_name
from carddb.core.cards.slugs import card_stems
from carddb.errors import CardDataError, ConflictError, InputError, NotFoundError
from carddb.files.reading import read_text_file
from carddb.workspace import Workspace

if TYPE_CHECKING:
    from carddb.catalogue.api import Catalogue

#: Where a card saved into the catalogue (no card file holds it) says it came from.
STUDIO_SOURCE = "carddb studio"


def text_digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def _stamp(path: Path) -> tuple[int, int, int]:
    """What tells a file changed without reading it: a rename over it (how files are saved) changes its inode."""
    st = path.stat()
    return st.st_ino, st.st_mtime_ns, st.st_size


@dataclass(frozen=True)
class Saved:
    """What an edit did: the card (None once deleted), the file it is in and that file's new digest, the card's
    page on the site, and a sentence for the designer."""

    game: str
    key: str | None
    file: str
    digest: str
    page: str | None
    said: str

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "key": self.key, "file": self.file, "digest": self.digest, "page": self.page,
                "said": self.said}


@dataclass(frozen=True)
class _Undo:
    path: str
    before: str
    after_digest: str
    game: str
    key: str | None
    what: str

    @classmethod
    def read(cls, place: Path | None) -> _Undo | None:
        """The edit kept at ``place`` by an earlier server; None when there is none, or it cannot be read (then
        there is nothing to undo: a file is put back only as the studio left it, never from a guess)."""
        if place is None:
            return None
        try:
            kept = json.loads(place.read_text(encoding="utf-8"))
            names = {f.name for f in fields(cls)}
            if not isinstance(kept, dict) or set(kept) != names or not all(
                    isinstance(kept[name], str) or (name == "key" and kept[name] is None) for name in names):
                return None
            return cls(**kept)
        except (OSError, ValueError):
            return None

    def keep(self, place: Path | None) -> None:
        if place is not None:
            from carddb.files.replacing import write_file

            place.parent.mkdir(parents=True, exist_ok=True)
            write_file(place, json.dumps(asdict(self), ensure_ascii=False))


class FormProblems(CardDataError):
    """A form's values that make no card, with the problem of each field (``""``: of the card as a whole), so the
    page shows each beside its field."""

    def __init__(self, message: str, problems: dict[str, str]) -> None:
        super().__init__(message)
        self.problems = problems


def _next_free(set_code: str, number: str, taken: set[tuple[str, str]]) -> str:
    """The collector number after ``number`` in its set that no printing has yet (M02 -> M03, or M17 when M03
    to M16 are taken), with as many digits; noted in ``taken``. A number without digits gives none."""
    found = re.fullmatch(r"(.*?)(\d+)(\D*)", number)
    if found is None:
        return ""
    head, digits, tail = found.groups()
    count = int(digits) + 1
    while (set_code, f"{head}{count:0{len(digits)}d}{tail}") in taken:
        count += 1
    free = f"{head}{count:0{len(digits)}d}{tail}"
    taken.add((set_code, free))
    return free


class Studio:
    """The edits of one ``carddb site serve``: one writer at a time, and the last edit kept to undo (in
    ``undo_file`` too, when given, so that a server started again can still undo it)."""

    def __init__(self, workspace: Workspace, catalogue: Catalogue | None = None, *, load_files: bool = True,
                 undo_file: Path | None = None) -> None:
        self.workspace = workspace
        self.catalogue = catalogue
        self.load_files = load_files  # False under a watcher, which loads every saved file itself
        self._lock = threading.Lock()
        self._undo_file = undo_file
        self._undo = _Undo.read(undo_file)
        #: each game's card files as last read, with the time and size of every file they were read from
        self._read: dict[str, tuple[tuple[tuple[str, int, int, int], ...], WorkspaceGame]] = {}

    # reading ------------------------------------------------------------------------------------------------
    def game_cards(self, game_id: str) -> WorkspaceGame:
        if game_id not in self.workspace.game_ids():  # never a path: only a game folder of the workspace
            raise NotFoundError(f"no game {str(game_id)[:60]!r} in this workspace "
                                f"(games: {', '.join(self.workspace.game_ids()) or 'none'})")
        files = [self.workspace.game_dir(game_id) / "game.toml", *self.workspace.card_files(game_id)]
        stamp = tuple((str(path), *_stamp(path)) for path in files)
        held = self._read.get(game_id)
        if held is None or held[0] != stamp:  # a keystroke's preview reads no file that did not change
            held = (stamp, read_workspace_game(self.workspace, game_id))
            self._read[game_id] = held
        return held[1]

    def _find(self, found: WorkspaceGame, key: str) -> tuple[Card, str | None]:
        """The card and its card file (None: only the catalogue holds it)."""
        for card, origin in found.cards:
            if card.key == key:
                return card, origin
        if self.catalogue is not None and self.catalogue.exists:
            for card in self.catalogue.cards(found.game.id):
                if card.key == key:
                    return card, None
        raise NotFoundError(f"{found.game.id} has no card {str(key)[:60]!r}")

    def open(self, game_id: str, key: str) -> dict[str, Any]:
        """What the form shows for a card: its inputs, its values, its file and that file's digest."""
        found = self.game_cards(game_id)
        card, origin = self._find(found, key)
        return {"game": game_id, "key": card.key, "kind": card.kind, "fields": form_fields(found.game, card.kind),
                "values": form_values(found.game, card), "file": origin, "files": found.files,
                "digest": self._digest(origin), "kinds": {kind: form_fields(found.game, kind)
                                                          for kind in found.game.kinds}}

    def _digest(self, origin: str | None) -> str:
        if origin is None:
            return ""
        return text_digest(read_text_file(self.workspace.root / origin, what="card file"))

    def check(self, game_id: str, values: Any, key: str | None = None) -> tuple[Card | None, dict[str, str]]:
        """The card the values make and the problems by field (``carddb.catalogue.studio_form``)."""
        found = self.game_cards(game_id)
        before = self._find(found, key)[0] if key else None
        return card_from_form(found.game, checked_values(values, found.game), before)

    # writing ------------------------------------------------------------------------------------------------
    def save(self, game_id: str, key: str, digest: str, values: Any) -> Saved:
        with self._lock:
            found = self.game_cards(game_id)
            before, origin = self._find(found, key)
            after = self._good(found, values, before)
            self._name_free(found, after, before)
            if origin is None:
                return self._save_in_catalogue(found, before, after)
            text = self._current(origin, digest)
            index = self._index(found, origin, before)
            cards = self._file_cards(found, origin)
            cards[index] = after
            if origin.endswith(".csv"):
                new = studio_text.csv_replace(found.game, text, before, after)
            else:
                new = studio_text.yaml_replace(found.game, text, index, before, after)
                if not self._reads_as(found, origin, new, cards, quiet=True):
                    new = studio_text.yaml_replace(found.game, text, index, before, after, whole=True)
            return self._write(found, origin, text, new, cards, after.key, f"saved {after.key} into {origin}")

    def create(self, game_id: str, file: str, values: Any) -> Saved:
        with self._lock:
            found = self.game_cards(game_id)
            origin = self._card_file(found, file)
            card = self._good(found, values, None)
            self._name_free(found, card, None)
            text = read_text_file(self.workspace.root / origin, what="card file")
            cards = [*self._file_cards(found, origin), card]
            new = (studio_text.csv_append(found.game, text, card) if origin.endswith(".csv")
                   else studio_text.yaml_insert(found.game, text, card))
            return self._write(found, origin, text, new, cards, card.key, f"added {card.key} to {origin}")

    def duplicate(self, game_id: str, key: str, digest: str) -> Saved:
        with self._lock:
            found = self.game_cards(game_id)
            before, origin = self._find(found, key)
            if origin is None:
                raise InputError(f"{key} is in no card file; write it back first (carddb cards write-back)")
            text = self._current(origin, digest)
            taken = {normalise_name(card.name) for card, _ in found.cards}
            name = next(f"{before.name} (copy{f' {n}' if n > 1 else ''})" for n in range(1, 1000)
                        if normalise_name(f"{before.name} (copy{f' {n}' if n > 1 else ''})") not in taken)
            values = form_values(found.game, before)
            taken = {(p.set, p.number) for card, _ in found.cards for p in card.printings}
            values["number"] = _next_free(values["set"], values["number"], taken)
            for printing in values["more_printings"]:
                printing["number"] = _next_free(printing.get("set", ""), printing.get("number", ""), taken)
            copy = self._good(found, {**values, "name": name}, before)
            index = self._index(found, origin, before)
            cards = self._file_cards(found, origin)
            cards.insert(index + 1, copy)
            new = (studio_text.csv_replace(found.game, text, before, copy, copy=True) if origin.endswith(".csv")
                   else studio_text.yaml_insert(found.game, text, copy, after=index))
            return self._write(found, origin, text, new, cards, copy.key, f"added {copy.key} to {origin}")

    def delete(self, game_id: str, key: str, digest: str) -> Saved:
        with self._lock:
            found = self.game_cards(game_id)
            before, origin = self._find(found, key)
            if origin is None:
                raise InputError(f"{key} is in no card file; remove it with carddb cards")
            text = self._current(origin, digest)
            index = self._index(found, origin, before)
            cards = self._file_cards(found, origin)
            del cards[index]
            new = (studio_text.csv_replace(found.game, text, before, None) if origin.endswith(".csv")
                   else studio_text.yaml_remove(text, index))
            return self._write(found, origin, text, new, cards, None, f"deleted {before.key} from {origin}")

    def undo(self) -> Saved:
        """Put back the file the last edit changed, as it was, when nothing changed it since."""
        with self._lock:
            last = self._undo
            if last is None:
                raise NotFoundError("there is no edit to undo")
            if last.game not in self.workspace.game_ids():
                self._forget_undo()
                raise NotFoundError(f"the game of the last edit, {last.game!r}, is no longer in this workspace")
            found = self.game_cards(last.game)
            self._card_file(found, last.path)  # kept on disk by an earlier server: still one of the game's files
            path = self.workspace.root / last.path
            current = read_text_file(path, what="card file")
            if text_digest(current) != last.after_digest:
                raise ConflictError(f"{last.path} changed on disk since the studio {last.what}; nothing was undone")
            self._check_game(found, last.path, last.before)
            self._writable(last.path)
            from carddb.files.replacing import write_file

            write_file(path, last.before, inside=self.workspace.root)
            self._forget_undo()
            self._load(last.game)
            return Saved(last.game, last.key, last.path, text_digest(last.before), None, f"undid: {last.what}")

    def _forget_undo(self) -> None:
        self._undo = None
        if self._undo_file is not None:
            self._undo_file.unlink(missing_ok=True)

    # the steps ----------------------------------------------------------------------------------------------
    def _good(self, found: WorkspaceGame, values: Any, before: Card | None) -> Card:
        card, problems = card_from_form(found.game, checked_values(values, found.game), before)
        if card is None:
            listed = "; ".join(f"{key or 'card'}: {message}" for key, message in problems.items())
            raise FormProblems(f"the card is not saved: {listed}", problems)
        return card

    @staticmethod
    def _name_free(found: WorkspaceGame, card: Card, before: Card | None) -> None:
        """A card renamed or made is not named as another card of the game (one line, before anything is read)."""
        identity = (normalise_name(card.name), card.qualifier)
        for other, path in found.cards:
            if other is not before and (normalise_name(other.name), other.qualifier) == identity:
                where = path or "the catalogue"
                said = (f"{found.game.id} has a card named {other.key!r} already (in {where}): "
                        "give this one another name")
                raise FormProblems(f"{said}; nothing was saved", {"name": said})

    def _current(self, origin: str, digest: str) -> str:
        text = read_text_file(self.workspace.root / origin, what="card file")
        if text_digest(text) != digest:
            raise ConflictError(f"{origin} changed on disk since this card was opened; nothing was saved. "
                                "Reload the page to edit the file as it is now.")
        return text

    def _card_file(self, found: WorkspaceGame, file: str) -> str:
        if file not in found.files:  # only a card file of this game, named as the game lists them
            raise NotFoundError(f"{str(file)[:80]!r} is not a card file of {found.game.id} "
                                f"(its card files: {', '.join(found.files) or 'none'})")
        return file

    @staticmethod
    def _file_cards(found: WorkspaceGame, origin: str) -> list[Card]:
        return [card for card, path in found.cards if path == origin]

    def _index(self, found: WorkspaceGame, origin: str, card: Card) -> int:
        return [c.key for c in self._file_cards(found, origin)].index(card.key)

    def _reads_as(self, found: WorkspaceGame, origin: str, text: str, cards: list[Card], *,
                  quiet: bool = False) -> bool:
        try:
            self._check_game(found, origin, text, cards)
        except CardDataError:
            if quiet:
                return False
            raise
        return True

    def _check_game(self, found: WorkspaceGame, origin: str, text: str, cards: list[Card] | None = None) -> None:
        """The new text, with the game's other files, reads cleanly; and as exactly ``cards`` when given."""
        raws = []
        for name in found.files:
            _named, file_raws = (read_card_text(text, origin) if name == origin
                                 else read_card_file(self.workspace.root / name))
            for raw in file_raws:
                raw.origin = name
            raws.extend(file_raws)
        built = build_cards_with_origins(found.game, raws, origin, refused="nothing was saved")
        if cards is not None:
            read = [fingerprint(card) for card, path in built if path == origin]
            if read != [fingerprint(card) for card in cards]:
                raise CardDataError(f"{origin}: the edited file would not read back as the cards meant; "
                                    "nothing was written (please report this)")

    def _write(self, found: WorkspaceGame, origin: str, before: str, text: str, cards: list[Card], key: str | None,
               what: str) -> Saved:
        self._check_game(found, origin, text, cards)
        self._writable(origin)
        from carddb.files.replacing import write_file

        write_file(self.workspace.root / origin, text, inside=self.workspace.root)
        digest = text_digest(text)
        self._undo = _Undo(origin, before, digest, found.game.id, key, what)
        self._undo.keep(self._undo_file)
        self._load(found.game.id)
        return Saved(found.game.id, key, origin, digest, self._page(found, origin, cards, key), what)

    def _writable(self, origin: str) -> None:
        """A card file the studio may replace: not read-only, not a link to a file outside the workspace (the
        studio's refusal is the 422 of a bad value, where a command's would be exit 3)."""
        from carddb.files.replacing import refusal

        refused = refusal(self.workspace.root / origin, self.workspace.root)
        if refused:
            raise InputError(f"{refused}; nothing was saved")

    def _page(self, found: WorkspaceGame, origin: str, cards: list[Card], key: str | None) -> str | None:
        """The card's page on the site once rebuilt (its stem among the game's cards as they are now)."""
        if key is None:
            return None
        keys = [c.key for c, path in found.cards if path != origin] + [c.key for c in cards]
        return f"games/{found.game.id}/cards/{card_stems(keys)[key]}/"

    def _save_in_catalogue(self, found: WorkspaceGame, before: Card, after: Card) -> Saved:
        if self.catalogue is None:
            raise NotFoundError(f"{before.key} is in no card file")
        if normalise_name(after.name) != normalise_name(before.name) or after.qualifier != before.qualifier:
            raise InputError(f"{before.key} is in no card file: rename it after writing it back "
                             "(carddb cards write-back)")
        self.catalogue.write(found.game, [after], STUDIO_SOURCE, kind=EDIT)
        return Saved(found.game.id, after.key, "", "", None,
                     f"saved {after.key} in the catalogue (carddb cards write-back writes it into a card file)")

    def _load(self, game_id: str) -> None:
        if self.catalogue is not None and self.load_files:
            self.catalogue.load_workspace_game(self.workspace, game_id)

