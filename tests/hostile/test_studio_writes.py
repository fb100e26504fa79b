"""The card studio's writes facing what a hostile workspace or page sends, as its address answers them (the
request body a page posts, past the token check, which ``tests/site/test_studio_http.py`` attacks): a card file
that is a link to a file outside the workspace, a read-only card file, a number of 5,000 digits, a rename onto
another card's name. Each gets one clear refusal (422, one line) and changes nothing on disk."""

from __future__ import annotations

import difflib
import json
import os
from pathlib import Path

import pytest

from carddb.catalogue.studio_edits import Studio
from carddb.site.studio_http import PREFIX, StudioServer
from carddb.workspace import Workspace
from tests.hostile.conftest import Ledger, in_process, one_error_line, tree

CARDS = "rules/mini/cards/core.yaml"
KEY = "Blue Unit 1"


class Page:
    """What the studio's page posts, straight to the address that answers it."""

    def __init__(self, root: Path) -> None:
        self.server = StudioServer(Studio(Workspace(root)))

    def post(self, action: str, request: dict | None = None, raw: bytes | None = None) -> tuple[int, dict]:
        return self.server.answer(PREFIX + action, raw if raw is not None else json.dumps(request).encode())

    def form(self) -> dict:
        status, form = self.post("open", {"game": "mini", "key": KEY})
        assert status == 200, form
        return form


def _refused(answer: tuple[int, dict], *words: str) -> str:
    status, body = answer
    assert status == 422, answer
    message = body["error"]
    assert "\n" not in message and len(message) < 500, message
    assert all(word in message for word in words), (words, message)
    return message


def test_a_card_file_linked_outside_the_workspace_is_never_written_through(ws_copy: Path, tmp_path: Path,
                                                                          ledger: Ledger) -> None:
    outside = tmp_path / "outside.yaml"
    card_file = ws_copy / CARDS
    outside.write_text(card_file.read_text(encoding="utf-8"), encoding="utf-8")
    card_file.unlink()
    card_file.symlink_to(outside)
    before = outside.read_bytes()
    page = Page(ws_copy)
    form = page.form()
    attempts = {
        "save": {"game": "mini", "key": KEY, "digest": form["digest"], "values": {**form["values"], "cost": "5"}},
        "new": {"game": "mini", "file": CARDS, "values": {**form["values"], "name": "Brand New"}},
        "duplicate": {"game": "mini", "key": KEY, "digest": form["digest"]},
        "delete": {"game": "mini", "key": KEY, "digest": form["digest"]},
    }
    for action, request in attempts.items():
        ledger.tried("studio: linked card file")
        _refused(page.post(action, request), "is a link to", "outside", "nothing was saved")
    assert outside.read_bytes() == before and card_file.is_symlink()


def test_a_read_only_card_file_is_refused_and_keeps_its_mode(ws_copy: Path, ledger: Ledger) -> None:
    card_file = ws_copy / CARDS
    card_file.chmod(0o444)
    before = card_file.read_bytes()
    page = Page(ws_copy)
    form = page.form()
    for action, request in {
        "save": {"game": "mini", "key": KEY, "digest": form["digest"], "values": {**form["values"], "cost": "5"}},
        "new": {"game": "mini", "file": CARDS, "values": {**form["values"], "name": "Brand New"}},
    }.items():
        ledger.tried("studio: read-only card file")
        _refused(page.post(action, request), "read-only", "nothing was saved")
    assert card_file.read_bytes() == before and card_file.stat().st_mode & 0o777 == 0o444


def test_a_command_refuses_a_read_only_file_with_exit_3(ws_copy: Path, tmp_path: Path, ledger: Ledger) -> None:
    target = tmp_path / "cards.yaml"
    target.write_text("mine\n", encoding="utf-8")
    target.chmod(0o444)
    ledger.tried("read-only output file")
    run = in_process(ws_copy, "cards", "export", "--game", "mini", "--out", str(target))
    assert run.exit_code == 3, run
    one_error_line(run, naming="read-only")
    assert target.read_text(encoding="utf-8") == "mine\n" and target.stat().st_mode & 0o777 == 0o444


@pytest.mark.parametrize("action", ["preview", "save"])
@pytest.mark.parametrize("digits", [25, 4_301, 5_000, 100_000])
def test_a_number_of_thousands_of_digits_is_a_bad_value(ws_copy: Path, action: str, digits: int,
                                                        ledger: Ledger) -> None:
    page = Page(ws_copy)
    form = page.form()
    before = tree(ws_copy / "rules")
    head = {"game": "mini", "key": KEY, "digest": form["digest"]}
    raw = json.dumps({**head, "values": {"cost": "N"}}).replace('"N"', "9" * digits).encode()
    ledger.tried("studio: long number")
    _refused(page.post(action, raw=raw), f"{digits:,} digits", "out of range")
    as_text = {**head, "values": {**form["values"], "cost": "9" * min(digits, 3_999)}}
    status, body = page.post(action, as_text)
    assert status in (200, 422) and "failed" not in str(body), body
    if action == "save":
        assert status == 422
    assert tree(ws_copy / "rules") == before


def test_a_rename_onto_another_cards_name_says_so_in_one_line(ws_copy: Path, ledger: Ledger) -> None:
    page = Page(ws_copy)
    form = page.form()
    other = next(line.split(": ", 1)[1] for line in (ws_copy / CARDS).read_text(encoding="utf-8").splitlines()
                 if line.startswith("  - name: ") and KEY not in line)
    before = tree(ws_copy / "rules")
    ledger.tried("studio: rename onto a name")
    message = _refused(page.post("save", {"game": "mini", "key": KEY, "digest": form["digest"],
                                          "values": {**form["values"], "name": other}}),
                       other, "another name", "nothing was saved")
    assert "imported" not in message
    assert tree(ws_copy / "rules") == before
    assert os.listdir(ws_copy / "rules" / "mini" / "cards") == ["core.yaml"]


def test_values_that_make_no_card_are_refused_with_each_fields_problem(ws_copy: Path, ledger: Ledger) -> None:
    """What the page shows beside Save and at each field: one line, and the problem of each field by its key."""
    page = Page(ws_copy)
    form = page.form()
    before = tree(ws_copy / "rules")
    head = {"game": "mini", "key": KEY, "digest": form["digest"]}
    attempts = [
        ("save", {**head, "values": {**form["values"], "cost": "lots"}}, {"cost"}),
        ("save", {**head, "values": {**form["values"], "cost": "-1", "power": "x"}}, {"cost", "power"}),
        ("save", {**head, "values": {**form["values"], "name": ""}}, {"name"}),
        ("new", {"game": "mini", "file": CARDS, "values": {"kind": form["values"]["kind"]}}, {"name"}),
        ("new", {"game": "mini", "file": CARDS, "values": {**form["values"], "name": "  "}}, {"name"}),
    ]
    for action, request, fields in attempts:
        ledger.tried("studio: values that make no card")
        status, body = page.post(action, request)
        _refused((status, body), "the card is not saved")
        assert fields <= set(body["problems"]), (fields, body)
        assert all(isinstance(said, str) and said and "\n" not in said for said in body["problems"].values())
    other = next(line.split(": ", 1)[1] for line in (ws_copy / CARDS).read_text(encoding="utf-8").splitlines()
                 if line.startswith("  - name: ") and KEY not in line)
    ledger.tried("studio: a new card named as another")
    status, body = page.post("new", {"game": "mini", "file": CARDS, "values": {**form["values"], "name": other}})
    _refused((status, body), "another name", "nothing was saved")
    assert set(body["problems"]) == {"name"} and "another name" in body["problems"]["name"]
    assert tree(ws_copy / "rules") == before


@pytest.mark.parametrize("shape", ["merge-key", "tagged", "anchored-value", "comment-only-lines", "crlf"])
def test_a_card_file_of_an_unusual_shape_gets_a_new_card_and_a_copy_that_read_back(ws_copy: Path, shape: str,
                                                                                 ledger: Ledger) -> None:
    """A new card and a copy in card files a person could write: each is added and reads back as meant (the
    studio reads every new text back before writing it), or refused in one line with nothing changed."""
    card_file = ws_copy / CARDS
    text = card_file.read_text(encoding="utf-8")
    first = text.index("  - name: ")
    shaped = {
        "merge-key": text[:first] + "  - &unit\n    name: Base Unit\n    kind: unit\n    cost: 1\n    power: 1\n"
                     "    colour: Red\n  - <<: *unit\n    name: Merged Unit\n" + text[first:],
        "tagged": text.replace("  - name: ", "  - name: !!str ", 1),
        "anchored-value": text.replace("    cost: 2\n", "    cost: &two 2\n", 1).replace("    cost: 3\n",
                                                                                         "    cost: *two\n", 1),
        "comment-only-lines": text.replace("\n  - name: ", "\n  # a note\n\n  - name: "),
        "crlf": text.replace("\n", "\r\n"),
    }[shape]
    card_file.write_bytes(shaped.encode("utf-8"))
    page = Page(ws_copy)
    for action, key in [("new", "Shaped"), ("duplicate", f"{KEY} (copy)")]:
        form = page.form()  # the file's digest now
        request = ({"game": "mini", "file": CARDS, "values": {**form["values"], "name": key}} if action == "new"
                   else {"game": "mini", "key": KEY, "digest": form["digest"]})
        ledger.tried("studio: card file of an unusual shape")
        before = card_file.read_bytes()
        status, body = page.post(action, request)
        if status != 200:
            _refused((status, body))
            assert card_file.read_bytes() == before
            continue
        assert page.post("open", {"game": "mini", "key": key})[0] == 200
        after = card_file.read_bytes()
        removed = [line for line in difflib.ndiff(before.decode().splitlines(True), after.decode().splitlines(True))
                   if line.startswith("- ")]
        assert removed == [], removed  # every line of the file kept, the card's lines added
        if shape == "crlf":  # in the file's line endings
            assert b"\n" not in after.replace(b"\r\n", b""), after
    assert page.post("undo", {})[0] == 200
