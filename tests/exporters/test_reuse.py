"""What an export takes from earlier work instead of doing it again, and that it never takes a stale answer: the
sample decks another exporter of the same build found, the previous export's images."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

from carddb.core.cards.card import card_copy
from carddb.core.cards.slugs import slugify
from carddb.exporters.decks import sample_decks
from carddb.exporters.lackey import export_lackey
from carddb.incremental import shared, sharing_answers

from .conftest import FACE_SIZE, FakeCatalogue, pattern_face, pattern_render


def _shmod_workspace(repo_root: Path, folder: Path) -> Path:
    root = folder / "ws"
    shutil.copytree(repo_root / "rules" / "shmod", root / "rules" / "shmod")
    return root


def test_the_sample_decks_found_once_are_given_with_each_callers_own_cards(tmp_path, repo_root, catalogue) -> None:
    root = _shmod_workspace(repo_root, tmp_path)
    game, cards = catalogue.game("shmod"), catalogue.cards("shmod")
    with sharing_answers():  # as within a build
        first = sample_decks(root, game, cards, [])
        assert len(first) >= 5
        theirs = [card_copy(card) for card in cards]  # another exporter's copies, equal to the first's
        again = sample_decks(root, game, theirs, [])
    assert [(deck.stem, deck.name) for deck in again] == [(deck.stem, deck.name) for deck in first]
    assert [[(zone, card.key, count) for zone, card, count in deck.entries] for deck in again] == \
        [[(zone, card.key, count) for zone, card, count in deck.entries] for deck in first]
    mine = {id(card) for card in theirs}
    assert all(id(card) in mine for deck in again for _, card, _ in deck.entries)


def test_a_changed_card_or_deck_file_is_answered_again(tmp_path, repo_root, catalogue) -> None:
    with sharing_answers():  # as within a build: an answer is given again only for an equal question
        _changes_are_answered_again(tmp_path, repo_root, catalogue)


def _changes_are_answered_again(tmp_path, repo_root, catalogue) -> None:
    root = _shmod_workspace(repo_root, tmp_path)
    game, cards = catalogue.game("shmod"), catalogue.cards("shmod")
    first = sample_decks(root, game, cards, [])
    deck = first[0]
    _, card, _ = deck.entries[0]

    # the card a legal deck names, renamed: that deck no longer passes the check, and the note says so
    renamed = [replace(card_copy(c), name="Nobody At All") if c.key == card.key else card_copy(c) for c in cards]
    notes: list[str] = []
    decks = sample_decks(root, game, renamed, notes)
    assert deck.stem not in {d.stem for d in decks}
    assert notes and "that should pass `carddb deck check` but do not" in notes[0]

    # the same cards again: the first answer, and no note
    notes = []
    assert [d.stem for d in sample_decks(root, game, cards, notes)] == [d.stem for d in first] and not notes

    # a legal deck file rewritten to name a card the game does not have: left out at once
    path = next(p for p in sorted((root / "rules" / "shmod" / "decks").iterdir()) if slugify(p.stem) == deck.stem)
    path.write_text("1 Nobody At All\n", encoding="utf-8")
    notes = []
    assert deck.stem not in {d.stem for d in sample_decks(root, game, cards, notes)}
    assert path.name in notes[0]


def test_a_link_in_the_previous_export_is_never_taken_as_its_image(tmp_path, repo_root, catalogue) -> None:
    """An image of the previous export replaced by a link to a file elsewhere: the next export, which takes every
    unchanged image from the previous one, draws that image again and writes a file of its own there."""
    cards = catalogue.cards("shmod")
    fake = FakeCatalogue(catalogue.game("shmod"), cards)
    out, faces = tmp_path / "lackey", tmp_path / "faces"
    export_lackey(repo_root, fake, "shmod", out, faces_dir=faces, renderer=pattern_render)
    images = sorted(path for path in out.rglob("*.jpg") if "cardback" not in path.name.lower())
    victim = images[len(images) // 2]
    drawn = victim.read_bytes()
    elsewhere = tmp_path / "elsewhere.jpg"
    elsewhere.write_bytes(b"not this export's image")
    victim.unlink()
    victim.symlink_to(elsewhere)

    fake.card_list = [replace(card_copy(card), text=card.text + " Changed.") if index == 0 else card
                      for index, card in enumerate(cards)]  # the export is made again, its images taken
    report = export_lackey(repo_root, fake, "shmod", out, faces_dir=faces, renderer=pattern_render)
    assert not report.kept
    assert not victim.is_symlink() and victim.read_bytes() == drawn
    assert elsewhere.read_bytes() == b"not this export's image"


def test_answers_are_shared_within_a_build_only() -> None:
    calls: list[int] = []

    def make() -> int:
        calls.append(1)
        return len(calls)

    assert shared("question", [1, 2], make) == 1
    assert shared("question", [1, 2], make) == 2  # outside a build: found every time
    with sharing_answers():
        assert shared("question", [1, 2], make) == 3
        assert shared("question", [1, 2], make) == 3
        assert shared("question", [1, 3], make) == 4  # another question
    with sharing_answers():
        assert shared("question", [1, 3], make) == 5  # the next build starts afresh


def test_one_changed_card_converts_one_image_and_links_the_others(tmp_path, repo_root, catalogue,
                                                                   monkeypatch) -> None:
    """LackeyCCG and Cockatrice after one card's face changed: that card's image converted, every other image the
    previous export's own file (linked: the same inode), and the progress still counting every image."""
    import carddb.exporters.cockatrice.export as cockatrice_module
    import carddb.exporters.lackey.export as lackey_module

    cards = catalogue.cards("shmod")
    fake = FakeCatalogue(catalogue.game("shmod"), cards)
    faces = tmp_path / "faces"
    exports = {"lackey": lambda out, **kw: export_lackey(repo_root, fake, "shmod", out, faces_dir=faces,
                                                         renderer=pattern_render, **kw),
               "cockatrice": lambda out, **kw: cockatrice_module.export_cockatrice(
                   repo_root, fake, "shmod", out, faces_dir=faces, renderer=pattern_render, **kw)}
    before = {}
    for client, export in exports.items():
        export(tmp_path / client)
        before[client] = {path: path.stat().st_ino for path in (tmp_path / client).rglob("*.jpg")}
    converted: list[Path] = []
    for module in (lackey_module, cockatrice_module):
        real = module.jpeg_bytes
        monkeypatch.setattr(module, "jpeg_bytes", lambda face, *args, real=real: converted.append(face)
                            or real(face, *args))
    face = sorted(path for path in (faces / "shmod").glob("*.png") if path.stem != "back")[3]
    pattern_face("a changed face", FACE_SIZE).save(face)  # as the renderer redraws a changed card's face
    for client, export in exports.items():
        converted.clear()
        told: list[tuple[int, int | None]] = []
        report = export(tmp_path / client, progress=lambda done, total, told=told: told.append((done, total)))
        images = len(before[client])
        changed = [path for path, inode in before[client].items()  # LackeyCCG's spawned.jpg is always written
                   if path.stat().st_ino != inode and path.name != "spawned.jpg"]
        assert len(converted) == 1, client
        assert report.images_made[0] == 1 and len(changed) == 1, client
        assert told[-1][0] == told[-1][1] == report.images_made[1] >= images - 1, client
