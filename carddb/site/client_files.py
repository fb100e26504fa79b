"""Every online client's files of a game, put on the site so that a published site is all a table needs.

``carddb build`` exports each game into ``output/<client>/<game>/`` with ``file:///`` image URLs (they work
on the building machine only). The site takes those exports as they are and rewrites only the files that hold
URLs, so that they point at the site (``site_url``)::

    clients/<game>/tts/<object>.json .png, sheets/     saved objects: FaceURL and BackURL on the site
    clients/<game>/lackey/<plugin>/...  <plugin>.zip   the plugin, with updatelist.txt and version.txt
    clients/<game>/cockatrice/customsets/ pics/ decks/ the database, each printing's picurl on the site
    clients/<game>/apprentice/...  <game>-apprentice.zip

Images and every other file are copied as exported (never converted again); a picture whose name is no safe
URL path (Cockatrice names pictures by card name) is put on the site under its card's stem, as the faces are.
Print-shop files are not here: ``carddb build`` does not make them (a game for one shop is 27 MB).
"""

from __future__ import annotations

import html
import io
import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any, BinaryIO
from urllib.parse import unquote, urlsplit

from carddb.core.game.definition import GameDefinition
from carddb.core.limits import brief
from carddb.errors import OutputError
from carddb.exporters.output import MARKER, files_under
from carddb.exporters.published import plugin_name, url_for
from carddb.incremental import MANIFEST, Manifest, file_digest

CLIENTS = ("tts", "lackey", "cockatrice", "apprentice")
#: The site's folder of every game's client files.
SITE_FOLDER = "clients"
#: What an export folder holds for carddb alone.
_OWN_FILES = frozenset({MARKER, MANIFEST})
#: A path segment any web server serves as it is named (``url_for`` quotes the spaces).
_SAFE_SEGMENT = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 ._()'+,-]*$")


@dataclass
class GameClients:
    """One game's client files on the site: what to generate, what to copy, and what the page offers."""

    game_id: str
    data: dict[str, bytes] = field(default_factory=dict)  # site path -> bytes (the rewritten files)
    copies: dict[str, Path] = field(default_factory=dict)  # site path -> exported file, copied as it is
    keys: dict[str, str] = field(default_factory=dict)  # site path -> the key its export's manifest gives its copy
    #: client -> what its page section names: {"files": [site paths], plus client-specific entries}
    offered: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: site path -> the name of the file in the build's cache a copy is (a zip made there: ``store``)
    cached: dict[str, str] = field(default_factory=dict)
    #: (site path, its bytes made on demand) -> the file in the build's cache holding them, or None (no cache): the
    #: LackeyCCG plugin's zip holds every image, and as bytes it was packed, digested twice and written whole
    store: ZipStore | None = field(default=None, compare=False, repr=False)

    def add_zip(self, site_path: str, members: dict[str, bytes | Path], earlier: Path | None = None) -> None:
        """A zip of ``members`` (name -> bytes, or the file holding them) at ``site_path``: a copy of a file in the
        build's cache, keyed by what the cache named it, else bytes. ``earlier``: a zip of the files among
        ``members`` under the same names (``_zip``)."""
        placed = self.store(site_path, lambda handle: _write_zip(handle, members, earlier)) \
            if self.store is not None else None
        if placed is None:
            self.data[site_path] = _zip(members, earlier)
            return
        path, key = placed
        self.copies[site_path] = path
        self.keys[site_path] = key
        self.cached[site_path] = path.name


#: Where ``GameClients.add_zip`` keeps a zip: (site path, write it into a file) -> (the file, its key) or None.
ZipStore = Callable[[str, Callable[[BinaryIO], None]], "tuple[Path, str] | None"]


def export_folder(exports: Path, client: str, game_id: str) -> Path:
    return exports / client / game_id


def exports_digest(exports: Path, game_id: str) -> list[Any]:
    """What a game's client files on the site are made from, for the site's key: each export's manifest (it
    changes whenever the export is written again) and the names and sizes of its files (no times: the key is
    kept in the site's manifest, which a clean build must write alike), and the day LackeyCCG's version.txt
    carries."""
    key: list[Any] = []
    for client in CLIENTS:
        folder = export_folder(exports, client, game_id)
        files = [(relative, path.stat().st_size) for relative, path in _files(folder)] if folder.is_dir() else []
        key.append([client, file_digest(folder / MANIFEST), files])
    key.append(date.today().isoformat() if (export_folder(exports, "lackey", game_id) / MARKER).is_file() else "")
    return key


def game_clients(exports: Path, game: GameDefinition, cards: list[Any], site_url: str,
                 store: ZipStore | None = None) -> GameClients:
    """The client files of ``game`` from the exports under ``exports`` (``output/``), with URLs under
    ``site_url`` (checked, ending in ``/``). A client whose export is missing is left out. ``store`` keeps the
    large zips as files (``GameClients.add_zip``)."""
    found = GameClients(game.id, store=store)
    base = f"{SITE_FOLDER}/{game.id}"
    for client, take in (("tts", _tts), ("lackey", _lackey), ("cockatrice", _cockatrice),
                         ("apprentice", _apprentice)):
        folder = export_folder(exports, client, game.id)
        if (folder / MARKER).is_file():
            offered = take(found, folder, game, cards, f"{base}/{client}", site_url)
            if offered:
                found.offered[client] = offered
            _keys_of_copies(found, folder)
    return found


def _keys_of_copies(found: GameClients, folder: Path) -> None:
    """The key each copy from the export in ``folder`` was made from, as the export's manifest keeps it (an image's:
    the face and how it was converted), for the site's key of the file (``SiteContent.copy_keys``)."""
    parts = Manifest.read(folder / MANIFEST).parts
    prefix = f"{folder}{os.sep}"
    for site_path, source in found.copies.items():
        name = str(source)
        if name.startswith(prefix):
            key = parts.get(name[len(prefix):].replace(os.sep, "/"), {}).get("key")
            if isinstance(key, str):
                found.keys[site_path] = key


def _files(folder: Path) -> list[tuple[str, Path]]:
    """Every file under ``folder`` but carddb's own, as (relative path, path), sorted."""
    return [(relative, path) for relative, path in files_under(folder) if path.name not in _OWN_FILES]


def _tts(found: GameClients, folder: Path, game: GameDefinition, cards: list[Any], base: str,
         site_url: str) -> dict[str, Any]:
    objects = folder / plugin_name(game, [])
    local = objects.resolve()
    saved = []
    rewritten: dict[str, str] = {}  # a sheet's address is named by every card on it: rewritten once
    for relative, path in _files(objects):
        if path.suffix == ".json":
            data = json.loads(path.read_text(encoding="utf-8"))
            _rewrite_tts(data, local, site_url + base, rewritten)
            # compact: the indented export is for reading; a download is for Tabletop Simulator, and Python's JSON
            # encoder indents in Python, not C (a second of every build that changes a card of the game)
            found.data[f"{base}/{relative}"] = (json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"
                                                ).encode()
            saved.append(f"{base}/{relative}")
        else:
            found.copies[f"{base}/{relative}"] = path
    return {"files": saved}


def _rewrite_tts(value: Any, local: Path, base: str, rewritten: dict[str, str]) -> None:
    """Each ``FaceURL`` and ``BackURL`` naming a file of the exported folder, as the same file on the site."""
    if isinstance(value, list):
        for item in value:
            _rewrite_tts(item, local, base, rewritten)
    elif isinstance(value, dict):
        for key, item in value.items():
            if key in ("FaceURL", "BackURL") and isinstance(item, str) and item.startswith("file:"):
                if item not in rewritten:
                    rewritten[item] = _site_address(item, local, base)
                value[key] = rewritten[item]
            else:
                _rewrite_tts(item, local, base, rewritten)


def _site_address(file_url: str, local: Path, base: str) -> str:
    path = Path(unquote(urlsplit(file_url).path))
    if not path.is_relative_to(local):  # an export made elsewhere: its images are not these files
        raise OutputError(f"the Tabletop Simulator export in {local} names an image outside it "
                          f"({brief(file_url)}); run `carddb build` to export it again")
    return url_for(base, path.relative_to(local).as_posix())


def _lackey(found: GameClients, folder: Path, game: GameDefinition, cards: list[Any], base: str,
            site_url: str) -> dict[str, Any]:
    from carddb.exporters.lackey.export import checksums
    from carddb.exporters.lackey.publish import build_updatelist, build_version

    plugin = plugin_name(game, [])
    plugin_base = f"{base}/{plugin}"
    files: dict[str, bytes | Path] = {}  # the files, read only when zipped (and the few an updatelist checksums)
    for relative, path in _files(folder / plugin):
        if relative not in ("updatelist.txt", "version.txt"):  # a game's own [lackey] base_url made those
            files[relative] = path
            found.copies[f"{plugin_base}/{relative}"] = path
    day = date.today()
    url = site_url + plugin_base
    version = build_version(url, day, f"{game.name}: carddb site of {day:%Y-%m-%d}").encode()
    image_sets = sorted({rel.split("/")[2] for rel in files if rel.startswith("sets/setimages/")})
    # the card images' checksums as the export's manifest keeps them (its folder and manifest are swapped in whole)
    known = checksums(Manifest.read(folder / MANIFEST).parts, plugin)
    updatelist = build_updatelist(plugin, url, day, {**files, "version.txt": version}, image_sets, known).encode()
    found.data[f"{plugin_base}/version.txt"] = version
    found.data[f"{plugin_base}/updatelist.txt"] = updatelist
    everything: dict[str, bytes | Path] = {**files, "version.txt": version, "updatelist.txt": updatelist}
    # the export's zip holds the same images under the same names (the export's folder and zip are swapped in whole)
    found.add_zip(f"{base}/{plugin}.zip", {f"{plugin}/{rel}": data for rel, data in everything.items()},
                  earlier=folder / f"{plugin}.zip")
    return {"files": [f"{base}/{plugin}.zip"], "updatelist": url_for(url, "updatelist.txt"), "plugin": plugin}


def _cockatrice(found: GameClients, folder: Path, game: GameDefinition, cards: list[Any], base: str,
                site_url: str) -> dict[str, Any]:
    from carddb.core.cards.slugs import card_stems
    from carddb.exporters.card_names import client_names

    ordered = sorted(cards, key=lambda c: c.key.casefold())  # as export_cockatrice names them
    names = client_names(ordered, "Cockatrice", [])
    stems = card_stems(card.key for card in cards)
    stem_of = {names[id(card)]: stems[card.key] for card in ordered}
    database = f"customsets/carddb-{game.id}.xml"
    on_site: dict[str, str] = {}  # exported picture -> its path on the site
    exported: set[str] = set()
    for relative, path in _files(folder):
        exported.add(relative)
        if relative == database:
            continue
        placed = relative
        if relative.startswith("pics/") and not all(_SAFE_SEGMENT.match(part) for part in relative.split("/")):
            placed = None  # named below, by its card's stem
        if placed:
            found.copies[f"{base}/{placed}"] = path
            on_site[relative] = placed
    text = (folder / database).read_text(encoding="utf-8")
    found.data[f"{base}/{database}"] = _with_picture_urls(text, folder, exported, on_site, stem_of, found, base,
                                                          site_url).encode("utf-8")
    decks = sorted(f"{base}/{rel}" for rel in on_site.values() if rel.startswith("decks/"))
    return {"files": [f"{base}/{database}"], "decks": decks, "pictures": site_url + f"{base}/pics/CUSTOM/"}


#: In a Cockatrice database as ``database.write_database`` writes it: a card's name, and each of its printings (a
#: ``<set>`` holding text only; the ``<set>`` of the sets' list holds elements).
_NAME_OR_PRINTING = re.compile(r'<name>([^<]*)</name>|<set((?: [\w-]+="[^"]*")*)>([^<]*)</set>')
_NUMBER = re.compile(r' num="([^"]*)"')


def _with_picture_urls(text: str, folder: Path, exported: set[str], on_site: dict[str, str],
                       stem_of: dict[str, str], found: GameClients, base: str, site_url: str) -> str:
    """The exported database ``text`` with a ``picurl`` on each printing whose picture was exported, the picture's
    address on the site (pictures whose names are no safe address are put on the site under their card's stem).
    The database's other bytes are the export's: it is rewritten as text, not parsed and written again (a
    game of 5,000 cards spent most of a second of every site build on that)."""
    from carddb.exporters.cockatrice.mapping import picture_path

    name = ""

    def rewrite(match: re.Match[str]) -> str:
        nonlocal name
        if match.group(1) is not None:
            name = html.unescape(match.group(1))
            return match.group(0)
        attributes = match.group(2)
        numbered = _NUMBER.search(attributes)
        number, set_code = html.unescape(numbered.group(1) if numbered else ""), html.unescape(match.group(3))
        picture = picture_path(name, set_code, number)
        if picture is None or picture not in exported:
            return match.group(0)
        if picture not in on_site:
            on_site[picture] = f"pics/CUSTOM/{set_code}/{stem_of.get(name, 'card')}_{set_code}_{number}.jpg"
            found.copies[f"{base}/{on_site[picture]}"] = folder / picture
        address = _xml_attribute(url_for(site_url + base, on_site[picture]))
        return f'<set{attributes} picurl="{address}">{match.group(3)}</set>'

    return _NAME_OR_PRINTING.sub(rewrite, text)


def _xml_attribute(value: str) -> str:
    """``value`` escaped as ElementTree escapes an attribute's value."""
    from xml.sax.saxutils import escape

    return escape(value, {'"': "&quot;", "\r": "&#13;", "\n": "&#10;", "\t": "&#09;"})


def _apprentice(found: GameClients, folder: Path, game: GameDefinition, cards: list[Any], base: str,
                site_url: str) -> dict[str, Any]:
    files: dict[str, bytes | Path] = {}
    for relative, path in _files(folder):
        found.copies[f"{base}/{relative}"] = path
        files[relative] = path
    found.data[f"{base}/{game.id}-apprentice.zip"] = _zip(files)
    return {"files": [f"{base}/{game.id}-apprentice.zip"]}


def _zip(files: dict[str, bytes | Path], earlier: Path | None = None) -> bytes:
    """``_write_zip`` into bytes."""
    buffer = io.BytesIO()
    _write_zip(buffer, files, earlier)
    return buffer.getvalue()


def _write_zip(handle: BinaryIO, files: dict[str, bytes | Path], earlier: Path | None = None) -> None:
    """A zip of ``files`` (name -> bytes, or the file holding them, read one at a time) that depends on their names
    and bytes alone (``carddb.files.zip_copy.write_zip``: fixed times, sorted names). ``earlier``: the export's own
    zip, of the same files under the same names, from which those given as files are copied as stored there."""
    from carddb.files.zip_copy import write_zip

    write_zip(handle, [(name, files[name]) for name in sorted(files)], earlier=earlier,
              same={name for name, data in files.items() if isinstance(data, Path)})
