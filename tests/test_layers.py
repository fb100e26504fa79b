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
    (layers,) = [c["layers"] for c in _contracts() if c["id"] == "layers"]
    drawn = "\n".join(" | ".join(part.strip().removeprefix("carddb.") for part in str(layer).split("|"))
                      for layer in layers)  # type: ignore[union-attr]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"<!-- layers: generated from pyproject.toml -->\n```\n(.*?)\n```\n<!-- /layers -->", readme,
                      re.S)
    assert block is not None, "README.md has lost its layers diagram"
    assert block[1] == drawn, "README.md's layers differ from pyproject.toml's contract: copy them across"


def _imports(path: Path) -> list[str]:
    """Every module ``path`` imports, at module level or inside a function (relative imports left out)."""
    import ast

    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names.append(node.module or "")
    return names


def test_the_pure_core_imports_nothing_outside_the_standard_library() -> None:
    """The browser runs carddb/core under Pyodide with no package installed: every import it makes at module
    level or inside a function is of the standard library or of itself."""
    files = [*sorted((ROOT / "carddb" / "core").rglob("*.py")), ROOT / "carddb" / "errors.py"]
    assert len(files) > 25, "the core has moved: this test must follow it"
    outside = [f"{path.relative_to(ROOT)}: {name}" for path in files for name in _imports(path)
               if not (name.split(".")[0] in sys.stdlib_module_names or name == "carddb"
                       or name.startswith(("carddb.core", "carddb.errors")))]
    assert outside == []


def test_each_games_engine_modules_are_pure() -> None:
    """What a game plugin ships to the browser imports the standard library, the core and its own engine only."""
    import importlib.util

    from carddb.core.play.registry import plugins

    found = plugins()
    assert set(found) == {"ssbm", "shmod", "minibattle", "website", "ssq"}
    for plugin in found.values():
        own = plugin.engine_modules
        for module in own:
            origin = importlib.util.find_spec(module).origin
            outside = [name for name in _imports(Path(origin))
                       if not (name.split(".")[0] in sys.stdlib_module_names or name in own
                               or name.startswith(("carddb.core", "carddb.errors")))]
            assert outside == [], f"{module} imports {outside}"
