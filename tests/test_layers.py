"""The package's layers: the import-linter contracts of pyproject.toml hold, and the README draws them."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _contracts() -> list[dict[str, object]]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]["contracts"]


def test_the_import_contracts_hold() -> None:
    pytest.importorskip("importlinter")
    run = subprocess.run([sys.executable, "-c", "from importlinter.cli import lint_imports_command; "
                          "lint_imports_command()", "--no-cache"], cwd=ROOT, capture_output=True, text=True,
                         timeout=300)
    kept = re.search(r"Contracts: (\d+) kept, (\d+) broken", run.stdout)
    assert kept is not None, run.stdout + run.stderr
    assert (int(kept[1]), int(kept[2])) == (len(_contracts()), 0), run.stdout


def test_the_readme_draws_the_layers_of_the_contract() -> None:
    (layers,) = [c["layers"] for c in _contracts() if c["type"] == "layers"]
    drawn = "\n".join(" | ".join(part.strip().removeprefix("carddb.") for part in str(layer).split("|"))
                      for layer in layers)  # type: ignore[union-attr]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"<!-- layers: generated from pyproject.toml -->\n```\n(.*?)\n```\n<!-- /layers -->", readme,
                      re.S)
    assert block is not None, "README.md has lost its layers diagram"
    assert block[1] == drawn, "README.md's layers differ from pyproject.toml's contract: copy them across"


def test_the_pure_core_imports_nothing_outside_the_standard_library() -> None:
    """The browser runs carddb/rules under Pyodide with no package installed: every import it makes at module
    level or inside a function is of the standard library or of itself."""
    import ast

    outside = []
    for path in [*sorted((ROOT / "carddb" / "rules").rglob("*.py")), ROOT / "carddb" / "errors.py"]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0 else []
            for name in names:
                top = name.split(".")[0]
                allowed = top in sys.stdlib_module_names or name.startswith(("carddb.rules", "carddb.errors")) \
                    or name == "carddb"
                if not allowed:
                    outside.append(f"{path.relative_to(ROOT)}: {name}")
    assert outside == []
