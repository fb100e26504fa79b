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
import os
import re
import shutil
import tempfile
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
from carddb.catalogue.textfiles import read_text_file
from carddb.catalogue.validate import build_cards
from carddb.errors import InputError, OutputError

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
        for item in _read_json(root, entry["sources"]):
            if not (isinstance(item, list) and len(item) == 4):
                raise InputError(f"{root / entry['sources']}: each entry is [card, kind, name, time]")
            key, kind, name, at = item
            listed[key] = (kind, name, datetime.fromisoformat(at) if at else None)
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
    target.parent.mkdir(parents=True, exist_ok=True)
    building = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        for relative, content in files.items():
            path = building / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(content, encoding="utf-8", newline="")
        old = None
        if target.exists():
            old = target.parent / f"{building.name}.old"
            os.replace(target, old)
        os.replace(building, target)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(building, ignore_errors=True)
        raise
    manifest = json.loads(files[MANIFEST])
    return {"games": len(manifest["games"]), "cards": sum(g["card_count"] for g in manifest["games"]),
            "collections": len(json.loads(files["collections.json"])),
            "boosters": len(json.loads(files["boosters.json"]))}


def restore(catalogue: Catalogue, folder: str | Path) -> dict[str, int]:
    """Read a dump into an empty catalogue, in one transaction: everything or nothing."""
    root = Path(folder)
    manifest = _read_json(root, MANIFEST)
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise InputError(f"{root / MANIFEST}: not a carddb dump manifest")
    if manifest.get("format_version") != FORMAT_VERSION:
        raise InputError(f"{root / MANIFEST}: dump format {manifest.get('format_version')!r}; this carddb reads "
                         f"format {FORMAT_VERSION}")
    existing = catalogue.held_games()
    if existing:
        raise InputError(f"restore needs an empty catalogue; {display_url(catalogue.engine)} already holds "
                         f"{', '.join(existing)}")
    loaded = []
    for entry in manifest["games"]:
        definition = read_text_file(_inside(root, entry["definition"]), what="game definition")
        game = parse_definition(definition, entry["definition_path"])
        if game.id != entry["id"]:
            raise InputError(f"{root / entry['definition']}: declares game {game.id!r}, the manifest says "
                             f"{entry['id']!r}")
        cards_path = _inside(root, entry["cards"])
        _named, raws = cardfiles.read_card_file(cards_path)
        cards = build_cards(game, raws, str(cards_path), extra_sets=[code for code, _name in entry["sets"]])
        loaded.append((entry, game, definition, cards, _sources(root, entry, cards)))
    collections = _read_json(root, manifest["collections"])
    boosters = _read_json(root, manifest["boosters"])
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
                                       opened_at=datetime.fromisoformat(b["opened_at"])) for b in boosters)
    return {"games": len(loaded), "cards": sum(len(cards) for *_, cards, _sources in loaded),
            "collections": len(collections), "boosters": len(boosters)}


def _inside(root: Path, relative: str) -> Path:
    parts = str(relative).split("/")
    if str(relative).startswith("/") or any(p in ("", ".", "..") for p in parts):
        raise InputError(f"{root / MANIFEST}: {relative!r} is not a path inside the dump")
    return root.joinpath(*parts)


def _read_json(root: Path, relative: str) -> Any:
    path = _inside(root, relative)
    try:
        return json.loads(read_text_file(path, what="dump file"))
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: not valid JSON (line {exc.lineno}: {exc.msg})") from None
