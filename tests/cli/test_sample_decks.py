"""Every sample deck in rules/*/decks/ gets the verdict and exactly the problem codes its first line promises,
through the command line, in text and in JSON."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from carddb.core.game.definition import SEVERITIES

REPO = Path(__file__).resolve().parents[2]
DECKS = sorted(p for p in REPO.glob("rules/*/decks/*") if p.suffix in {".txt", ".dek", ".dec"})
_EXPECT = re.compile(r"expect:\s*(?P<verdict>legal|illegal)(?P<rest>.*)")


def expectation(path: Path) -> tuple[bool, set[str], set[str]]:
    """(legal, error codes, warning codes) from the deck's `expect:` line (first line, or first comment)."""
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines()[:5]:
        match = _EXPECT.search(line)
        if match:
            rest = match["rest"]
            errors = re.search(r"errors:\s*([a-z\-, ]+)", rest)
            warnings = re.search(r"warnings:\s*([a-z\-, ]+)", rest)

            def codes(m: re.Match[str] | None) -> set[str]:
                return {c.strip() for c in m.group(1).split(",") if c.strip()} if m else set()

            return match["verdict"] == "legal", codes(errors), codes(warnings)
    return from_name(path)


def from_name(path: Path) -> tuple[bool, set[str], set[str]]:
    """A file that cannot hold a comment (a LackeyCCG .dek) promises its verdict by name:
    ``legal-...``, ``legal-warn-<code>-...``, ``illegal-<code>-...``."""
    stem = path.stem
    codes = sorted(SEVERITIES, key=len, reverse=True)
    for prefix, legal, warn in (("legal-warn-", True, True), ("illegal-", False, False), ("legal-", True, False)):
        if stem.startswith(prefix):
            rest = stem[len(prefix):]
            code = next((c for c in codes if rest.startswith(c)), None)
            if prefix == "legal-":
                return True, set(), set()
            assert code, f"{path}: no problem code after {prefix!r}"
            return legal, set() if warn else {code}, {code} if warn else set()
    raise AssertionError(f"{path} has no '# expect:' line and its name promises nothing")


def test_there_are_sample_decks_for_every_deck_game() -> None:
    games = {p.parent.parent.name for p in DECKS}
    assert {"ssbm", "shmod", "minibattle", "website"} <= games


@pytest.mark.parametrize("path", DECKS, ids=[f"{p.parent.parent.name}/{p.name}" for p in DECKS])
def test_sample_deck_verdict(path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    legal, errors, warnings = expectation(path)
    game = path.parent.parent.name
    result = cli("deck", "check", str(path), "--game", game, "--json")
    assert result.exit_code == (0 if legal else 1), result.stdout + result.stderr
    report = json.loads(result.stdout)
    assert report["legal"] is legal
    assert report["game"] == game
    got_errors = {p["code"] for p in report["problems"] if p["severity"] == "error"}
    got_warnings = {p["code"] for p in report["problems"] if p["severity"] == "warning"}
    assert (got_errors, got_warnings) == (errors, warnings), [p["message"] for p in report["problems"]]

    text = cli("deck", "check", str(path), "--game", game)
    assert text.exit_code == result.exit_code
    first = text.stdout.splitlines()[0]
    assert ("LEGAL" if legal else "ILLEGAL") in first.split(": ", 1)[1].split()[0]
    problem_lines = [line for line in text.stdout.splitlines()[1:] if not line.lstrip().startswith("rule: ")]
    assert len(problem_lines) == len(report["problems"])
    rules = [p["rule"] for p in report["problems"]]  # under each problem its rule, once for a run of the same
    assert [line.split("rule: ")[1] for line in text.stdout.splitlines() if line.lstrip().startswith("rule: ")] == [
        rule for i, rule in enumerate(rules) if rule and (i == 0 or rules[i - 1] != rule)]
    for problem in report["problems"]:
        assert any(problem["code"] in line and problem["message"] in line for line in text.stdout.splitlines()[1:])
