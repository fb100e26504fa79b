"""A reader that stops reading (``carddb ... | head``) ends neither the command's work nor its exit status:
no ``Error: Broken pipe``, and a build piped into ``head`` still builds."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

CARDDB = [sys.executable, "-c", "from carddb.cli.main import main; main()"]


def _first_line_then_close(args: list[str]) -> tuple[str, str, int]:
    """Run carddb with stdout into a pipe that is closed after the first line, as ``| head -1`` does."""
    process = subprocess.Popen([*CARDDB, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    first = process.stdout.readline().decode()
    process.stdout.close()
    stderr = process.stderr.read().decode()
    return first, stderr, process.wait(timeout=120)


def test_a_search_into_a_closed_pipe_ends_quietly(loaded_db: str, repo_root: Path) -> None:
    first, stderr, code = _first_line_then_close(["--root", str(repo_root), "--db", loaded_db,
                                                  "cards", "search", "--game", "shmod"])
    assert first.startswith("Name")
    assert (stderr, code) == ("", 0)


def test_a_deck_check_into_a_closed_pipe_keeps_its_verdict(loaded_db: str, repo_root: Path) -> None:
    deck = repo_root / "rules" / "shmod" / "decks" / "illegal-copy-limit-across-zones.txt"
    first, stderr, code = _first_line_then_close(["--root", str(repo_root), "--db", loaded_db,
                                                  "deck", "check", str(deck), "--game", "shmod"])
    assert "ILLEGAL" in first or "illegal" in first.lower()
    assert (stderr, code) == ("", 1)


def test_a_build_piped_into_head_still_builds(tmp_path: Path) -> None:
    workspace = tmp_path / "w"
    subprocess.run([*CARDDB, "init", str(workspace), "--no-npm"], check=True, capture_output=True)
    # the sheets, drawn last (beside the site), show the build went on: the other steps between are left out
    skips = [arg for step in ("lackey", "apprentice", "tts", "cockatrice", "kit", "site") for arg in ("--skip", step)]
    first, stderr, code = _first_line_then_close(["--root", str(workspace), "build", *skips])
    assert first.startswith("mygame: loaded")
    assert code == 0 and "Broken pipe" not in stderr
    assert list((workspace / "output" / "sheets").rglob("*.pdf"))  # the steps after the first line ran
