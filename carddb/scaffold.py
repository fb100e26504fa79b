"""``carddb init``: a workspace, and a new game in it, with files that already build, check and render.

A new game is a copy of ``carddb/starter/``: real files a designer can read before running ``init``
(``rules/`` becomes ``rules/<id>/``, ``templates/`` becomes ``templates/<id>/``); ``$id`` and ``$name`` in
the game definition and the rulebook are replaced by the new game's id and name. An example game is a copy of
one of the five bundled games. A new workspace also gets the files its games share: the site's sources, the
docs its site publishes, the shared icons and a ``.gitignore``.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from string import Template

from carddb.bundled import bundled_games, bundled_root
from carddb.errors import ConflictError, InputError
from carddb.files.replacing import replacing_folder, write_file
from carddb.progress import SILENT, Reporter

GAME_ID = re.compile(r"^[a-z][a-z0-9-]{1,31}$")
STARTER = Path(__file__).resolve().parent / "starter"
_FILLED_IN = {"game.toml", "rulebook.md"}
#: What the games of a workspace share, copied from the bundled files into a workspace that lacks them.
WORKSPACE_FILES = ("site", "docs", "templates/icons.toml")
GITIGNORE = "# carddb writes everything it makes into output/; npm installs Pyodide into site/node_modules/\n" \
            "output/\nsite/node_modules/\n"
_NOT_COPIED = shutil.ignore_patterns("node_modules", "__pycache__", "*.pyc")


@dataclass
class InitReport:
    root: Path
    created: list[Path] = field(default_factory=list)
    games: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: what went wrong on the way (npm missing or failing): said even with --quiet
    warnings: list[str] = field(default_factory=list)


def init_workspace(root: str | Path, *, game_id: str | None = None, name: str | None = None,
                   example: str | None = None, install_pyodide: bool = True,
                   progress: Reporter = SILENT) -> InitReport:
    """``carddb init DIR``: make ``root`` a workspace, or add to one.

    Adds a new game (``game_id``, from the starter; a folder that is not yet a workspace gets ``mygame`` when no
    game is named) or a copy of a bundled game (``example``), then every shared workspace file ``root`` lacks.
    Nothing that exists is ever replaced. When the site's sources were just copied and ``install_pyodide`` is
    set, ``npm ci`` installs the Pyodide they pin (the site's in-browser checker), if npm is there.
    """
    root = Path(root)
    if game_id and example:
        raise InputError("--game starts a new game and --example copies a bundled one: give one of them")
    if root.exists() and not root.is_dir():
        raise InputError(f"{root} is a file, not a folder")
    report = InitReport(root=root)
    if example:
        report.created += copy_example(root, example)
        report.games.append(example)
    elif game_id or not (root / "rules").is_dir():
        report.created += scaffold_game(root, game_id or "mygame", name)
        report.games.append(game_id or "mygame")
    shared = scaffold_workspace(root)
    report.created += shared
    if root / "site" in shared:
        if install_pyodide:
            with progress.task("Installing the site's Pyodide (npm ci)"):
                failure = _install_pyodide(root / "site")
            if failure:
                report.warnings.append(failure)
            else:
                report.notes.append(f"installed the site's Pyodide into {root / 'site' / 'node_modules'} (npm ci)")
        else:
            report.notes.append(_pyodide_hint(root / "site"))
    return report


def scaffold_workspace(root: str | Path) -> list[Path]:
    """Copy into ``root`` each shared workspace file (``WORKSPACE_FILES``, a ``.gitignore``) it lacks."""
    root = Path(root)
    source = bundled_root()
    created = []
    for name in WORKSPACE_FILES:
        target = root / name
        if target.is_dir() and (source / name).is_dir():
            created += _missing_files(source / name, target)  # a deleted site/mkdocs.yml comes back
            continue
        if target.exists():
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        if (source / name).is_dir():
            _copy_folder(source / name, target)
        else:
            _write_atomic(target, (source / name).read_bytes())
        created.append(target)
    if not (root / ".gitignore").exists():
        _write_atomic(root / ".gitignore", GITIGNORE.encode())
        created.append(root / ".gitignore")
    return created


def _missing_files(source: Path, target: Path) -> list[Path]:
    """Copy each file of ``source`` that ``target`` lacks (a folder of the workspace that exists), never
    replacing one."""
    added = []
    for origin in sorted(source.rglob("*")):
        relative = origin.relative_to(source)
        if not origin.is_file() or any(part in ("node_modules", "__pycache__") for part in relative.parts) \
                or origin.suffix == ".pyc":
            continue
        if not (target / relative).exists():
            (target / relative).parent.mkdir(parents=True, exist_ok=True)
            _write_atomic(target / relative, origin.read_bytes())
            added.append(target / relative)
    return added


def copy_example(root: str | Path, game_id: str) -> list[Path]:
    """A copy of the bundled game ``game_id``: ``rules/<id>/`` and ``templates/<id>/``; refuses (changing
    nothing) when either exists."""
    games = bundled_games()
    if game_id not in games:
        raise InputError(f"no bundled game {game_id!r}; the examples are {', '.join(games)}")
    root = Path(root)
    source = bundled_root()
    pairs = [(source / top / game_id, root / top / game_id) for top in ("rules", "templates")]
    for _, target in pairs:
        if target.exists():
            raise ConflictError(f"{target} already exists; nothing was changed")
    for origin, target in pairs:
        if origin.is_dir():
            target.parent.mkdir(parents=True, exist_ok=True)
            _copy_folder(origin, target)
    return [target for origin, target in pairs if origin.is_dir()]


def _copy_folder(source: Path, target: Path) -> None:
    """Copy beside the target, then put in place: the folder appears whole or not at all."""
    with replacing_folder(target) as staging:
        shutil.copytree(source, staging, ignore=_NOT_COPIED, dirs_exist_ok=True)


def _write_atomic(target: Path, data: bytes) -> None:
    write_file(target, data)


def _pyodide_hint(site: Path) -> str:
    return (f"the site's in-browser checker needs Pyodide: run `npm ci --prefix {site}` once (Node.js's npm); "
            "until then `carddb build` skips the site")


def _install_pyodide(site: Path) -> str | None:
    """Run ``npm ci`` in the new site; what went wrong, or None."""
    npm = shutil.which("npm")
    if npm is None:
        return "npm was not found, so " + _pyodide_hint(site)
    done = subprocess.run([npm, "ci", "--prefix", str(site), "--no-audit", "--no-fund", "--loglevel=error"],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        detail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no message"]
        return f"npm ci failed ({detail[0]}), so " + _pyodide_hint(site)
    return None


def scaffold_game(root: str | Path, game_id: str, name: str | None = None) -> list[Path]:
    """Create ``rules/<game_id>/`` and ``templates/<game_id>/`` under ``root``; refuse (changing nothing) if
    either exists."""
    if not GAME_ID.match(game_id):
        raise InputError(f"game id {game_id!r}: use 2 to 32 lower-case letters, digits or '-', starting with a letter")
    root = Path(root)
    if root.exists() and not root.is_dir():
        raise InputError(f"{root} is a file, not a folder")
    targets = {"rules": root / "rules" / game_id, "templates": root / "templates" / game_id}
    for existing in targets.values():
        if existing.exists():
            raise ConflictError(f"{existing} already exists; nothing was changed")
    # A name is one line (a newline would end game.toml's string and its comment line); in game.toml it is a
    # TOML string, so quotes and backslashes are escaped there.
    title = " ".join((name or game_id.replace("-", " ").title()).split()) or game_id
    plain = {"id": game_id, "name": title, "title": title}
    in_toml = {**plain, "name": title.replace("\\", "\\\\").replace('"', '\\"')}
    created = []
    for top, target in targets.items():
        # Each folder is built aside and put in place whole: an interrupted init leaves no half game behind
        # (which would then block running it again).
        with replacing_folder(target) as stage:
            for source in sorted(p for p in (STARTER / top).rglob("*") if p.is_file()):
                relative = source.relative_to(STARTER / top)
                text = source.read_text(encoding="utf-8")
                if source.name in _FILLED_IN:
                    text = Template(text).substitute(in_toml if source.suffix == ".toml" else plain)
                (stage / relative).parent.mkdir(parents=True, exist_ok=True)
                (stage / relative).write_text(text, encoding="utf-8")
                created.append(target / relative)
    return created
