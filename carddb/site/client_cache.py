"""A game's client files for the site, made again only when its exports, cards, game or site address changed.

Rewriting a game's exports for the site (its LackeyCCG plugin zipped, its TTS objects and Cockatrice database
pointed at the site) takes a fifth of a second a game, in every site build. A build after one card changed
re-exports one game; the other four games' client files are what they were, so they are kept in the build's
cache folder (``carddb.incremental.remembered``), keyed by everything ``game_clients`` reads: the exports'
own key (``exports_digest``: each export's manifest, its files' names and sizes, LackeyCCG's day), the
exports' folder, the game, its cards, the site's address and carddb's code. An entry that cannot be read
back whole is made again, never trusted.

The LackeyCCG plugin's zip (every card image: 85 MB at 2,000 cards) is not in the entry: it is a file of the cache of
its own (``cached_file``), which the site copies and keys by the entry's key. As bytes it was packed into the entry
and digested for it, digested again as a file of the site and written twice, in every build that changed a card.
An entry whose zip is no longer in the cache is made again.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO

from carddb.core.game.definition import GameDefinition
from carddb.site.client_files import GameClients, exports_digest, game_clients

_MAGIC = b"carddb-clients-1\n"


def remembered_clients(exports: Path, game: GameDefinition, cards: list[Any], site_url: str) -> GameClients:
    """``game_clients(exports, game, cards, site_url)``, from the cache when its inputs are unchanged."""
    from carddb.incremental import cached_written_file, code_digest, digest, forget_remembered, remembered

    key = digest("game-clients", code_digest(), str(exports.resolve()), exports_digest(exports, game.id),
                 game.raw, [card.to_dict() for card in cards], site_url)
    made: list[GameClients] = []

    def store(site_path: str, zipped: Callable[[BinaryIO], None]) -> tuple[Path, str] | None:
        zip_key = digest(key, site_path)  # made from what the client files are: their key, and which file it is
        path = cached_written_file(zip_key, zipped, ".zip")
        return (path, zip_key) if path is not None else None

    def make() -> bytes:
        made.append(game_clients(exports, game, cards, site_url, store))
        return pack(made[0])

    packed = remembered(key, make)
    if made:
        return made[0]
    unpacked = unpack(packed)
    if unpacked is None or not _cached_files_there(unpacked):  # damaged or pruned: made again, and kept whole
        forget_remembered(key)
        remembered(key, make)
        return made[0]
    return unpacked


def _cached_files_there(clients: GameClients) -> bool:
    """Whether every zip the entry names is a file in this build's cache (it is kept there for the next build)."""
    from carddb.incremental import cached_path

    for site_path, name in clients.cached.items():
        path = cached_path(name)
        if path is None:
            return False
        clients.copies[site_path] = path  # the cache this build uses (the process's memo may be another's)
    return True


def pack(clients: GameClients) -> bytes:
    """``clients`` as bytes: a JSON header (the copies, what is offered, each file's length) and the files' bytes
    after it, with the SHA-256 of all of it first so that a damaged entry is known."""
    names = sorted(clients.data)
    header = json.dumps({"game": clients.game_id, "copies": {k: str(v) for k, v in clients.copies.items()},
                         "keys": clients.keys, "offered": clients.offered, "cached": clients.cached,
                         "data": [[name, len(clients.data[name])] for name in names]},
                        ensure_ascii=False, sort_keys=True).encode("utf-8")
    body = len(header).to_bytes(8, "big") + header + b"".join(clients.data[name] for name in names)
    return _MAGIC + hashlib.sha256(body).digest() + body


def unpack(packed: bytes) -> GameClients | None:
    """What ``pack`` made, or None when ``packed`` is not one whole entry."""
    start = len(_MAGIC) + 32
    if not packed.startswith(_MAGIC) or hashlib.sha256(packed[start:]).digest() != packed[len(_MAGIC):start]:
        return None
    size = int.from_bytes(packed[start:start + 8], "big")
    header = json.loads(packed[start + 8:start + 8 + size].decode("utf-8"))
    clients = GameClients(header["game"], copies={k: Path(v) for k, v in header["copies"].items()},
                          keys=dict(header.get("keys", {})), offered=header["offered"],
                          cached=dict(header.get("cached", {})))
    at = start + 8 + size
    for name, length in header["data"]:
        clients.data[name] = packed[at:at + length]
        at += length
    return clients if at == len(packed) else None
