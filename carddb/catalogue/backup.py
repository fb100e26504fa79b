"""The whole catalogue as a folder of plain files, and back: ``carddb db dump`` / ``carddb db restore``.

    manifest.json              what the folder holds: format, schema revision, games (definition path, sets)
    games/<game>/game.toml     the game definition, byte for byte as the catalogue holds it
    games/<game>/cards.yaml    every card of the game, in catalogue order (docs/card-files.md)
    games/<game>/sources.json  where each card came from: [card key, kind, name, time], in the same order
    collections.json           every collection: game, name, [card key, count] sorted by card key
    boosters.json              every booster opening in the order opened: game, player, time, seed, cards

No timestamps of the dump itself and sorted keys everywhere, so dump, restore, dump gives the same bytes
on either engine. The folder is written beside the target and swapped in whole; a restore is one transaction.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import select

from carddb.catalogue import cardfiles
from carddb.catalogue.api import Catalogue
from carddb.catalogue.db import display_url, schema_status
from carddb.catalogue.definitions import parse_definition
from carddb.catalogue.models import BoosterOpening, Collection, CollectionEntry, GameRow, SetRow
from carddb.catalogue.provenance import UNKNOWN, Source, fingerprint
from carddb.catalogue.store import identity, write_cards
from carddb.catalogue.validate import build_cards
from carddb.core.limits import MAX_COPIES, brief, in_int_range, int_range_text, shown
from carddb.errors import InputError, OutputError
from carddb.files.reading import read_json_file, read_text_file
from carddb.files.replacing import clean_leftovers, replacing_folder

FORMAT = "carddb-dump"
FORMAT_VERSION = 1
MANIFEST = "manifest.json"
_SAFE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


def _json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def dump_files(catalogue: Catalogue) -> dict[str, str]:
    """Every file of a dump, by its path inside the folder."""
    files: dict[str, str] = {}
    games = []
    with catalogue.session() as session:
        game_rows = session.execute(select(GameRow).order_by(GameRow.id)).scalars().all()
        definitions = [(row.id, row.definition, row.definition_path) for row in game_rows]
        collections = []
        for collection in session.execute(select(Collection).order_by(Collection.game_id, Collection.name)).scalars():
            entries = session.execute(select(CollectionEntry.card_key, CollectionEntry.count)
                                      .where(CollectionEntry.collection_id == collection.id)
                                      .order_by(CollectionEntry.card_key)).all()
            collections.append({"game": collection.game_id, "name": collection.name,
                                "cards": [[key, count] for key, count in entries]})
        boosters = [{"game": b.game_id, "player": b.player, "opened_at": _utc(b.opened_at).isoformat(),
                     "seed": b.seed, "cards": list(b.cards)}
                    for b in session.execute(select(BoosterOpening).order_by(BoosterOpening.id)).scalars()]
    for game_id, definition, definition_path in definitions:
        if not _SAFE_ID.match(game_id):
            raise OutputError(f"game id {game_id!r} cannot name a folder of the dump")
        game = parse_definition(definition, definition_path)
        folder = f"games/{game_id}"
        files[f"{folder}/game.toml"] = definition
        cards = catalogue.cards(game_id)
        files[f"{folder}/cards.yaml"] = cardfiles.cards_to_yaml(game, cards)
        sources = catalogue.sources(game_id)
        files[f"{folder}/sources.json"] = _json([_source_entry(card.key, sources[identity(card)]) for card in cards])
        games.append({"id": game_id, "definition": f"{folder}/game.toml", "definition_path": definition_path,
                      "cards": f"{folder}/cards.yaml", "sources": f"{folder}/sources.json", "card_count": len(cards),
                      "sets": [[code, name] for code, name in catalogue.sets(game_id)]})
    files["collections.json"] = _json(collections)
    files["boosters.json"] = _json(boosters)
    files[MANIFEST] = _json({"format": FORMAT, "format_version": FORMAT_VERSION,
                             "schema_revision": schema_status(catalogue.engine).head, "games": games,
                             "collections": "collections.json", "boosters": "boosters.json"})
    return files


def _source_entry(key: str, source: Source) -> list[Any]:
    return [key, source.kind, source.name, _utc(source.at).isoformat() if source.at else None]


def _sources(root: Path, entry: dict[str, Any], cards: list[Any]) -> list[Source]:
    """The sources a dump lists for its cards (a dump from before sources: unknown, as after an upgrade)."""
    listed = {}
    if entry.get("sources"):
        path = _inside(root, _text_field(entry, "sources", root / MANIFEST))
        items = read_json_file(path, what="dump file")
        for item in items if isinstance(items, list) else [items]:
            if not (isinstance(item, list) and len(item) == 4 and all(isinstance(v, str) for v in item[:3])
                    and isinstance(item[3], str | None)):
                raise InputError(f"{path}: each entry is [card, kind, name, time], not {shown(item)}")
            key, kind, name, at = item
            try:
                listed[key] = (kind, name, datetime.fromisoformat(at) if at else None)
            except ValueError:
                raise InputError(f"{path}: {shown(at)} is not a date and time") from None
    result = []
    for card in cards:
        kind, name, at = listed.get(card.key, (UNKNOWN, "", None))
        result.append(Source(kind, name, at, fingerprint(card) if kind != UNKNOWN else ""))
    return result


def _utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def dump(catalogue: Catalogue, folder: str | Path) -> dict[str, int]:
    """Write the dump folder whole (built beside it, then swapped in); returns what it holds."""
    files = dump_files(catalogue)
    target = Path(folder)
    if target.exists() and (not target.is_dir() or (any(target.iterdir()) and not (target / MANIFEST).exists())):
        raise OutputError(f"{target} exists and is not an earlier carddb dump; choose a new or empty folder")
    with replacing_folder(target) as building:
        for relative, content in files.items():
            path = building / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(content, encoding="utf-8", newline="")
    manifest = json.loads(files[MANIFEST])
    return {"games": len(manifest["games"]), "cards": sum(g["card_count"] for g in manifest["games"]),
            "collections": len(json.loads(files["collections.json"])),
            "boosters": len(json.loads(files["boosters.json"]))}


def restore(catalogue: Catalogue, folder: str | Path) -> dict[str, int]:
    """Read a dump into an empty catalogue, in one transaction: everything or nothing.

    Every file is checked before anything is written: the manifest's shape and card counts, and each record
    of collections.json and boosters.json (types, numbers within the catalogue's range, games of the dump).
    """
    root = Path(folder)
    clean_leftovers(root.absolute().parent)  # a dump whose writing was interrupted gets its old copy back
    manifest_path = root / MANIFEST
    manifest = read_json_file(manifest_path, what="dump manifest")
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise InputError(f"{manifest_path}: not a carddb dump manifest")
    if manifest.get("format_version") != FORMAT_VERSION:
        raise InputError(f"{manifest_path}: dump format {shown(manifest.get('format_version'))}; this carddb "
                         f"reads format {FORMAT_VERSION}")
    entries = _records(manifest.get("games"), manifest_path, "games", _GAME_ENTRY)
    existing = catalogue.held_games()
    if existing:
        raise InputError(f"restore needs an empty catalogue; {display_url(catalogue.engine)} already holds "
                         f"{', '.join(existing)}")
    loaded = []
    for number, entry in enumerate(entries, start=1):
        where = f"{manifest_path} game {number}"
        sets = entry["sets"]
        if not all(isinstance(pair, list) and len(pair) == 2 and all(isinstance(v, str) for v in pair)
                   for pair in sets):
            raise InputError(f"{where}: sets must be [code, name] pairs of text")
        definition = read_text_file(_inside(root, entry["definition"]), what="game definition")
        game = parse_definition(definition, entry["definition_path"])
        if game.id != entry["id"]:
            raise InputError(f"{root / entry['definition']}: declares game {game.id!r}, the manifest says "
                             f"{brief(entry['id'])!r}")
        cards_path = _inside(root, entry["cards"])
        _named, raws = cardfiles.read_card_file(cards_path)
        cards = build_cards(game, raws, str(cards_path), extra_sets=[code for code, _name in entry["sets"]])
        if len(cards) != entry["card_count"]:
            raise InputError(f"{cards_path}: holds {len(cards)} cards, the manifest says {entry['card_count']}; "
                             "the dump is incomplete or was edited, nothing was restored")
        loaded.append((entry, game, definition, cards, _sources(root, entry, cards)))
    games = {game.id for _entry, game, *_rest in loaded}
    collections_path = _inside(root, _text_field(manifest, "collections", manifest_path))
    collections = _records(read_json_file(collections_path, what="dump file"), collections_path, "", _COLLECTION)
    for number, item in enumerate(collections, start=1):
        where = f"{collections_path} record {number}"
        _known_game(item["game"], games, where)
        for pair in item["cards"]:
            if not (isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str)
                    and _whole(pair[1]) and 0 < pair[1] <= MAX_COPIES):
                raise InputError(f"{where}: each card is [card key, count] with a count from 1 to "
                                 f"{MAX_COPIES:,}, not {shown(pair)}")
    boosters_path = _inside(root, _text_field(manifest, "boosters", manifest_path))
    boosters = _records(read_json_file(boosters_path, what="dump file"), boosters_path, "", _BOOSTER)
    opened_at = []
    for number, item in enumerate(boosters, start=1):
        where = f"{boosters_path} record {number}"
        _known_game(item["game"], games, where)
        if item["seed"] is not None and not (_whole(item["seed"]) and in_int_range(item["seed"])):
            raise InputError(f"{where}: seed is a whole number {int_range_text()} or null, not "
                             f"{shown(item['seed'])}")
        if not all(isinstance(card, str) for card in item["cards"]):
            raise InputError(f"{where}: cards is a list of card keys (text)")
        try:
            opened_at.append(datetime.fromisoformat(item["opened_at"]))
        except ValueError:
            raise InputError(f"{where}: opened_at is not a date and time ({shown(item['opened_at'])})") from None
    with catalogue.transaction() as session:
        for entry, game, definition, cards, sources in loaded:
            session.add(GameRow(id=game.id, name=game.name, definition=definition,
                                definition_path=entry["definition_path"]))
            session.flush()
            for code, name in entry["sets"]:  # in their original order, so listings keep it
                session.add(SetRow(game_id=game.id, code=code, name=name))
            session.flush()
            write_cards(session, game, cards, sources)
        for item in collections:
            collection = Collection(game_id=item["game"], name=item["name"])
            session.add(collection)
            session.flush()
            session.add_all(CollectionEntry(collection_id=collection.id, card_key=key, count=count)
                            for key, count in item["cards"])
        session.add_all(BoosterOpening(game_id=b["game"], player=b["player"], seed=b["seed"], cards=b["cards"],
                                       opened_at=when) for b, when in zip(boosters, opened_at, strict=True))
    return {"games": len(loaded), "cards": sum(len(cards) for *_, cards, _sources in loaded),
            "collections": len(collections), "boosters": len(boosters)}


_GAME_ENTRY = {"id": str, "definition": str, "definition_path": str, "cards": str, "card_count": int, "sets": list}
_COLLECTION = {"game": str, "name": str, "cards": list}
_BOOSTER = {"game": str, "player": str, "opened_at": str, "seed": (int, type(None)), "cards": list}


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _records(value: Any, path: Path, key: str, shape: dict[str, Any]) -> list[dict[str, Any]]:
    """``value`` as a list of objects with exactly the keys of ``shape``, each of its type."""
    what = f"{path}{f' {key}' if key else ''}"
    if not isinstance(value, list):
        raise InputError(f"{what}: expected a list of records, got {shown(value)}")
    for number, record in enumerate(value, start=1):
        if not isinstance(record, dict):
            raise InputError(f"{what} record {number}: expected an object, got {shown(record)}")
        missing = [k for k in shape if k not in record]
        if missing:
            raise InputError(f"{what} record {number}: {missing[0]!r} is missing")
        for field_name, kind in shape.items():
            field_value = record[field_name]
            if not isinstance(field_value, kind) or (kind is int and isinstance(field_value, bool)):
                raise InputError(f"{what} record {number}: {field_name} has the wrong type "
                                 f"({shown(field_value)})")
            if _whole(field_value) and not in_int_range(field_value):
                raise InputError(f"{what} record {number}: {field_name} {shown(field_value)} is out of range "
                                 f"({int_range_text()})")
    return value


def _text_field(manifest: dict[str, Any], key: str, path: Path) -> str:
    value = manifest.get(key)
    if not isinstance(value, str):
        raise InputError(f"{path}: {key} must name a file of the dump, not {shown(value)}")
    return value


def _known_game(game_id: str, games: set[str], where: str) -> None:
    if game_id not in games:
        raise InputError(f"{where}: game {brief(game_id)!r} is not one of the dump's games "
                         f"({', '.join(sorted(games)) or 'none'})")


def _inside(root: Path, relative: str) -> Path:
    parts = str(relative).split("/")
    if str(relative).startswith("/") or any(p in ("", ".", "..") for p in parts):
        raise InputError(f"{root / MANIFEST}: {shown(relative)} is not a path inside the dump")
    return root.joinpath(*parts)
