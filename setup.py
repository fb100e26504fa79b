"""The wheel carries the workspace files that live at the top of the repository (the five games, their
templates, the site's sources and the docs) as ``carddb/bundled/``, so an installed carddb can make a workspace
(`carddb init DIR`, `carddb init DIR --example shmod`) without the repository. The repository keeps them at the
top, where `carddb build` works on them; an editable install reads them there (carddb/bundled.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
#: What the wheel takes from the top of the repository: whole folders, and the parts of site/ a site needs
#: (its npm packages are installed in the workspace by `npm ci`, never shipped).
BUNDLED = ("rules", "templates", "docs", "site/mkdocs.yml", "site/overrides", "site/hooks", "site/docs",
           "site/package.json", "site/package-lock.json", "site/.npmrc")
SKIPPED = shutil.ignore_patterns("__pycache__", "*.pyc", "node_modules")


class BuildPyWithWorkspace(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install reads the repository's own folders
        target = Path(self.build_lib) / "carddb" / "bundled"
        for name in BUNDLED:
            source, destination = HERE / name, target / name
            if source.is_dir():
                shutil.copytree(source, destination, ignore=SKIPPED, dirs_exist_ok=True)
            elif source.is_file():
                destination.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, destination)
            else:
                raise SystemExit(f"setup.py: {source} is missing; the wheel needs it")


setup(cmdclass={"build_py": BuildPyWithWorkspace})
