"""The workspace: the folder carddb works on, as MkDocs works on the folder holding mkdocs.yml.

A workspace holds ``rules/<game>/game.toml`` (with ``cards/``, ``decks/``, ``rulebook.md``), ``templates/``,
``site/`` and ``output/``. The repository root is the workspace of the five bundled games.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from carddb.errors import InputError, UnknownGameError

ROOT_ENV = "CARDDB_ROOT"
DB_ENV = "CARDDB_DB"
#: The workspace's own settings, at its root (all optional): ``default_game = "mygame"``.
SETTINGS_FILE = "carddb.toml"


@dataclass(frozen=True)
class Workspace:
    root: Path

    @classmethod
    def find(cls, root: str | Path | None = None) -> Workspace:
        """The workspace at ``root``, else ``$CARDDB_ROOT``, else the nearest folder upwards holding ``rules/``;
        an ``InputError`` (exit 2) when there is none, so nothing is ever written into a folder that is not one."""
        found = cls.locate(root)
        if found is None:
            here = Path.cwd().resolve()
            raise InputError(f"no workspace found: neither {here} nor any folder above it holds a rules/ folder",
                             hint="Run carddb inside a workspace, name one with --root DIR, or start one with "
                                  "'carddb init DIR'.")
        return found

    @classmethod
    def locate(cls, root: str | Path | None = None) -> Workspace | None:
        """Like ``find``, but None when no workspace is named and none holds the current folder."""
        if root is None:
            root = os.environ.get(ROOT_ENV) or None
        if root is not None:
            path = Path(root).resolve()
            if not path.is_dir():
                raise InputError(f"workspace {root} is not a folder")
            return cls(path)
        here = Path.cwd().resolve()
        for folder in (here, *here.parents):
            if (folder / "rules").is_dir():
                return cls(folder)
        return None

    @property
    def rules_dir(self) -> Path:
        return self.root / "rules"

    @property
    def templates_dir(self) -> Path:
        return self.root / "templates"

    @property
    def output_dir(self) -> Path:
        return self.root / "output"

    @property
    def site_dir(self) -> Path:
        return self.root / "site"

    def default_db(self) -> str:
        return os.environ.get(DB_ENV) or str(self.output_dir / "catalogue.db")

    def game_ids(self) -> list[str]:
        """Every game folder with a game.toml, in name order."""
        if not self.rules_dir.is_dir():
            return []
        return sorted(p.parent.name for p in self.rules_dir.glob("*/game.toml"))

    def game_dir(self, game_id: str) -> Path:
        folder = self.rules_dir / game_id
        if not (folder / "game.toml").is_file():
            known = ", ".join(self.game_ids()) or "none"
            raise UnknownGameError(f"unknown game {game_id!r} (games in {self.rules_dir}: {known})")
        return folder

    def default_game(self) -> str | None:
        """The game a command means when ``--game`` is not given: ``default_game`` of the workspace's
        carddb.toml, else the workspace's only game; None when it has several and names none."""
        settings = self.root / SETTINGS_FILE
        if settings.is_file():
            import tomllib

            try:
                chosen = tomllib.loads(settings.read_text(encoding="utf-8")).get("default_game")
            except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
                raise InputError(f"{settings}: {exc}") from None
            if chosen is not None:
                if not isinstance(chosen, str) or chosen not in self.game_ids():
                    raise InputError(f"{settings}: default_game = {chosen!r} is not a game of the workspace "
                                     f"(games: {', '.join(self.game_ids()) or 'none'})")
                return chosen
        games = self.game_ids()
        return games[0] if len(games) == 1 else None

    def card_files(self, game_id: str) -> list[Path]:
        folder = self.game_dir(game_id) / "cards"
        return sorted([*folder.glob("*.yaml"), *folder.glob("*.yml"), *folder.glob("*.csv")])

    def deck_files(self, game_id: str) -> list[Path]:
        folder = self.game_dir(game_id) / "decks"
        return sorted(p for p in folder.glob("*") if p.suffix.lower() in {".txt", ".dek", ".dec"})
