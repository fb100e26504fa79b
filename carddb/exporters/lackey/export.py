"""``export_lackey``: a LackeyCCG plugin folder a player copies into ``LackeyCCG/plugins/``.

Layout (``research/lackey.md`` §1.1), inside ``<out_dir>/<plugin>/``::

    plugininfo.txt  ListOfCardDataFiles.txt  formats.txt  cardback.jpg  spawned.jpg
    sets/<set>.txt  sets/setimages/<Set>/<ImageFile>.jpg  packs/packdefinitions1.xml  decks/<deck>.dek
    version.txt  updatelist.txt                      (with a base URL)

and ``<out_dir>/<plugin>.zip`` with ``--zip``. The whole folder is built aside and swapped in at once.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

from carddb.core.cards.card import Card, Printing
from carddb.core.cards.slugs import card_stems, slugify
from carddb.core.decks.write import write_lackey
from carddb.core.game.definition import GameDefinition
from carddb.errors import InputError
from carddb.exporters.decks import sample_decks
from carddb.exporters.faces import BACK_KEY, LACKEY_HEIGHT, collect_faces, jpeg_bytes, placeholder_jpeg
from carddb.exporters.lackey.carddata import CellWriter, columns, lackey_names, render_file, row_values, set_value
from carddb.exporters.lackey.checksum import lackey_checksum
from carddb.exporters.lackey.packs import build_packs
from carddb.exporters.lackey.plugininfo import build_plugininfo, clean_label
from carddb.exporters.lackey.publish import build_updatelist, build_version
from carddb.exporters.output import Contents, Kept, check_target, contents
from carddb.exporters.previous import PreviousExport, deck_files, export_inputs, image_key
from carddb.exporters.published import check_base_url, plugin_name
from carddb.exporters.report import ExportReport
from carddb.files.zip_copy import write_zip


def export_lackey(workspace_root: str | Path, catalogue: Any, game_id: str, out_dir: str | Path,
                  base_url: str | None = None, zip: bool = False, *, faces_dir: str | Path | None = None,
                  renderer: Callable[..., object] | None = None, today: date | None = None,
                  progress: Callable[[int, int | None], None] | None = None) -> ExportReport:
    """Write the game's LackeyCCG plugin into ``out_dir`` (created, or replacing a previous export).

    ``catalogue`` offers ``game(id)`` and ``cards(id)``. Faces come from ``faces_dir`` (default
    ``<workspace>/output/faces``) and are rendered there first when missing. Without ``base_url``, the
    game's ``[lackey] base_url`` is used when it declares one (so ``carddb build`` writes a plugin ready to
    host).
    """
    workspace_root = Path(workspace_root)
    out_dir = Path(out_dir)
    game: GameDefinition = catalogue.game(game_id)
    cards: list[Card] = sorted(catalogue.cards(game_id), key=lambda c: c.key.casefold())
    if not cards:
        raise InputError(f"the catalogue has no {game_id} cards to export; load them with `carddb build` or "
                         f"`carddb cards import` first")
    base_url = base_url or game.lackey.get("base_url")
    check_target(out_dir)  # refuse a busy folder before rendering a single face
    base = check_base_url(base_url) if base_url else None
    day = today or date.today()
    report = ExportReport(game=game_id, client="lackey", out_dir=out_dir, root=out_dir, cards=len(cards))
    plugin = plugin_name(game, report.warnings)
    report.root = out_dir / plugin
    keys: dict[str, str] = {}
    faces, back = collect_faces(workspace_root, game, cards, Path(faces_dir or workspace_root / "output" / "faces"),
                                report.notes, renderer=renderer, keys=keys)
    previous = PreviousExport(out_dir, progress)  # progress: the images converted, n of m
    inputs = export_inputs("lackey", game, cards, keys, deck_files(workspace_root, game.id), str(out_dir.resolve()),
                           base, day.isoformat() if base else "", zip)
    if (kept := previous.up_to_date(inputs)) is not None:
        return kept
    files = _plugin_files(workspace_root, game, cards, plugin, faces, back, report, previous, keys)
    if base:
        files["version.txt"] = build_version(base, day, f"{game.name}: carddb export of {day:%Y-%m-%d}").encode()
        image_sets = sorted({rel.split("/")[2] for rel in files if rel.startswith("sets/setimages/")})
        files["updatelist.txt"] = build_updatelist(plugin, base, day, files, image_sets,
                                                   checksums(previous.parts, plugin)).encode()
    marker = {"carddb": "export", "client": "lackey", "game": game_id, "plugin": plugin}
    if zip:
        report.zip_path = out_dir / f"{plugin}.zip"
    return previous.write_export(out_dir, marker, files, inputs, report, under=plugin,
                                 finish=(lambda stage: _zip(stage, plugin, out_dir / f"{plugin}.zip", files))
                                 if zip else None)


#: What the manifest keeps beside a card image's key: its checksum in an updatelist.
CHECKSUM = "lackey checksum"


def checksums(parts: dict[str, dict[str, Any]], plugin: str) -> dict[str, int]:
    """The checksums an export's manifest (its ``parts``) keeps, by path inside the plugin folder."""
    prefix = f"{plugin}/"
    return {name[len(prefix):]: entry[CHECKSUM] for name, entry in parts.items()
            if name.startswith(prefix) and isinstance(entry.get(CHECKSUM), int)}


def _plugin_files(workspace_root: Path, game: GameDefinition, cards: list[Card], plugin: str,
                  faces: dict[str, Path], back: Path, report: ExportReport, previous: PreviousExport,
                  keys: dict[str, str]) -> dict[str, Contents]:
    warnings = report.warnings
    files: dict[str, Contents] = {"plugininfo.txt": build_plugininfo(game, warnings).encode("ascii")}
    names = lackey_names(cards, warnings)
    stems = card_stems(card.key for card in cards)  # the ImageFile of each card: its face's file name
    images = {id(card): stems[card.key] for card in cards}
    default_set = game.sets[0].code if game.sets else game.id
    set_names: dict[str, str] = {}
    for code in [info.code for info in game.sets] + [default_set] + [p.set for c in cards for p in c.printings]:
        if code not in set_names:
            set_names[code] = _distinct(set_value(code, warnings), set_names.values(), warnings)
    cols = columns(game)
    writer = CellWriter(warnings)
    rows: dict[str, list[list[str]]] = {}
    listed: dict[str, set[str]] = {}  # set -> the names its rows hold (a set, not a scan of the rows: 5,000 cards)
    face_jpegs = _encode_faces(faces, previous, keys, plugin)
    for card in cards:
        printings = card.printings or [Printing(set=default_set)]
        if not card.printings:
            warnings.append(f"{card.key}: no printing; listed in set {default_set!r}")
        for printing in dict.fromkeys(printings):
            set_name = set_names[printing.set]
            if names[id(card)] in listed.setdefault(set_name, set()):
                continue  # two printings in one set: Lackey knows a card once per set
            listed[set_name].add(names[id(card)])
            rows.setdefault(set_name, []).append(row_values(game, cols, card, printing, names[id(card)], set_name,
                                                            images[id(card)], writer))
            image = f"sets/setimages/{set_name}/{images[id(card)]}.jpg"
            files[image] = face_jpegs[card.key]
            previous.place(f"{plugin}/{image}", image_key(keys[card.key], LACKEY_HEIGHT))
            # what an updatelist lists for it (the site's always), found once for its bytes, not in every export
            previous.noted(f"{plugin}/{image}", CHECKSUM,
                           lambda jpeg=face_jpegs[card.key]: lackey_checksum(contents(jpeg)))
    data_files = []
    for set_name in sorted(rows, key=str.casefold):
        file_name = f"{slugify(set_name)}.txt"
        data_files.append(file_name)
        files[f"sets/{file_name}"] = render_file(cols, rows[set_name]).encode("ascii")
    report.rows = sum(len(r) for r in rows.values())
    files["ListOfCardDataFiles.txt"] = ("<listofcarddatafiles>\n" + "".join(
        f"<filetoinclude>{name}</filetoinclude>\n" for name in data_files) + "</listofcarddatafiles>\n").encode()
    cardback = previous.placed(f"{plugin}/cardback.jpg", image_key(keys[BACK_KEY], LACKEY_HEIGHT),
                               lambda: jpeg_bytes(back))
    files["cardback.jpg"] = cardback
    files["spawned.jpg"] = _spawned(contents(cardback), game)
    files["formats.txt"] = _formats(game, sorted(rows, key=str.casefold), warnings).encode("ascii")
    if game.booster is not None:
        booster_set = set_names.get(game.booster.set) if game.booster.set else None
        rarities = {p.rarity for c in cards for p in c.printings if not game.booster.set or p.set == game.booster.set}
        title = f"{game.name} {game.booster.set or ''} booster".replace("  ", " ")
        files["packs/packdefinitions1.xml"] = build_packs(clean_label(title, warnings), game.booster, booster_set,
                                                          rarities, warnings).encode("ascii")
    first_set = {id(c): set_names[(c.printings[0].set if c.printings else default_set)] for c in cards}
    for deck in sample_decks(workspace_root, game, cards, report.notes):
        text = write_lackey(deck.as_deck(game, lambda c: names[id(c)], lambda c: first_set[id(c)]), game,
                            image_of={names[id(c)]: images[id(c)] for c in cards})
        text = _with_game(text, game, plugin)
        files[f"decks/{deck.stem}.dek"] = text.encode("utf-8")
        report.decks += 1
    if game.lackey.get("hand_size"):
        report.notes.append(f"opening hand: {game.lackey['hand_size']} cards (press Draw that many times)")
    return files


def _encode_faces(faces: dict[str, Path], previous: PreviousExport, keys: dict[str, str],
                  plugin: str) -> dict[str, Contents]:
    """Every face as a JPEG (those made, on all cores); a face unchanged since the previous export is taken from it."""
    previous.expect(len(faces) + 1)  # and the card back
    return previous.images({key: (image_key(keys[key], LACKEY_HEIGHT), lambda face=face: jpeg_bytes(face))
                            for key, face in faces.items()})


def _distinct(name: str, taken, warnings: list[str]) -> str:  # type: ignore[no-untyped-def]
    """Set folders must differ ignoring case (Windows file systems ignore it)."""
    folded = {t.casefold() for t in taken}
    candidate, n = name, 1
    while candidate.casefold() in folded:
        n += 1
        candidate = f"{name}-{n}"
    if n > 1:
        warnings.append(f"set {name!r} differs from another set only by case or by unsafe characters; "
                        f"its LackeyCCG Set is {candidate!r}")
    return candidate


def _spawned(cardback: bytes, game: GameDefinition) -> bytes:
    import io

    from PIL import Image

    with Image.open(io.BytesIO(cardback)) as image:
        size = image.size
    return placeholder_jpeg(size, game.name, "spawned card")


def _formats(game: GameDefinition, set_names: list[str], warnings: list[str]) -> str:
    labels = [info.label for info in game.formats.values()] or [game.name]
    lines = ["<formatdefinitions>", ""]
    for label in labels:
        lines += ["<format>", f"\t<label>{clean_label(label, warnings)}</label>"]
        lines += [f"\t<set>{name}</set>" for name in set_names]
        lines += ["</format>", ""]
    lines.append("</formatdefinitions>")
    return "\n".join(lines) + "\n"


def _with_game(dek: str, game: GameDefinition, plugin: str) -> str:
    """The ``.dek``'s ``<game>`` is the plugin folder name (the deck writer uses ``[lackey] plugin_name``)."""
    from xml.sax.saxutils import escape

    written = escape(game.lackey.get("plugin_name", game.name))
    return dek.replace(f"<game>{written}</game>", f"<game>{escape(plugin)}</game>", 1)


def _zip(stage: Path, plugin: str, earlier: Path, files: dict[str, Contents]) -> None:
    """The plugin folder zipped beside it, in the order of the paths' parts, as sorted Paths were ("a b" after
    "a/b"): the zip of an earlier carddb. Each image taken from the previous export is copied from its zip
    (``earlier``) as it is stored there, not read again from its file."""
    previous = os.path.join(earlier.parent, plugin, "")
    same = {f"{plugin}/{relative}" for relative, data in files.items()
            if isinstance(data, Kept) and os.fspath(data.source) == previous + relative}
    # the files just written into the plugin folder, from what was written (not a walk of 5,000 files back)
    members = [(f"{plugin}/{relative}", data.source if isinstance(data, Kept) else data)
               for relative, data in sorted(((relative.replace("\\", "/"), data) for relative, data in files.items()),
                                            key=lambda item: item[0].split("/"))]
    with open(stage / f"{plugin}.zip", "xb") as handle:  # new: the stage may hold links to the live export
        write_zip(handle, members, earlier=earlier, same=same)
