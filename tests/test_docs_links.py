"""Every link of README.md and docs/ leads somewhere: a relative link names a file that exists (and a heading
of it, when it has a #fragment), and a document named in `backticks` is one the repository holds."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DOCUMENTS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
CODE_BLOCK = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
NAMED_DOC = re.compile(r"`([\w-]+\.md)`")
#: Documents named by their role, not by a path of this repository: every game has its own rulebook.md.
GENERIC_NAMES = {"rulebook.md"}


def slug(heading: str) -> str:
    """A heading's anchor as MkDocs (Python-Markdown's toc) makes it."""
    text = unicodedata.normalize("NFKD", heading).encode("ascii", "ignore").decode()
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def anchors(path: Path) -> set[str]:
    text = CODE_BLOCK.sub("", path.read_text(encoding="utf-8"))
    return {slug(line.lstrip("#")) for line in text.splitlines() if re.match(r"#{1,6} ", line)}


def prose(path: Path) -> str:
    return CODE_BLOCK.sub("", path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: p.relative_to(REPO).as_posix())
def test_every_relative_link_leads_to_a_file_and_heading(document: Path) -> None:
    broken = []
    for target in LINK.findall(prose(document)):
        if re.match(r"[a-z]+:", target):
            continue  # http:, https:, mailto:
        path_part, _, fragment = target.partition("#")
        destination = (document.parent / path_part).resolve() if path_part else document
        if not destination.exists():
            broken.append(f"{target}: no file {destination}")
        elif fragment and destination.suffix == ".md" and fragment not in anchors(destination):
            broken.append(f"{target}: {destination.name} has no heading #{fragment}")
    assert broken == []


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: p.relative_to(REPO).as_posix())
def test_every_document_named_in_backticks_exists(document: Path) -> None:
    known = {p.name for p in DOCUMENTS} | GENERIC_NAMES
    assert sorted(set(NAMED_DOC.findall(prose(document))) - known) == []


def test_the_slug_is_the_one_mkdocs_makes() -> None:
    assert slug(" Problem codes") == "problem-codes"
    assert slug(" LackeyCCG `.dek`") == "lackeyccg-dek"
    assert slug(" ssq: turns, initiative, dice") == "ssq-turns-initiative-dice"
