"""What the exports of a game share when they are published: the game's folder name, and the URLs of files put
on a web server (LackeyCCG's updatelist, Tabletop Simulator's image URLs)."""

from __future__ import annotations

import re
from urllib.parse import quote

from carddb.errors import InputError
from carddb.rules.game import GameDefinition
from carddb.rules.limits import brief
from carddb.rules.slugs import slugify

_SAFE_PLUGIN = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
_URL = re.compile(r"^https?://[^\s<>\"']+$")


def check_base_url(base_url: str) -> str:
    """The base URL without a trailing slash; refuses anything but a plain http(s) URL."""
    if not _URL.match(base_url):
        raise InputError(f"--base-url {brief(base_url)!r} is not an http:// or https:// URL without spaces or quotes")
    return base_url.rstrip("/")


def url_for(base_url: str, relative: str) -> str:
    return f"{base_url}/{quote(relative, safe='/')}"


def plugin_name(game: GameDefinition, warnings: list[str]) -> str:
    """The game's folder in every export (LackeyCCG's plugin folder, so the others follow it): ``[lackey]
    plugin_name`` when it is short ASCII without spaces, else a slug."""
    wanted = game.lackey.get("plugin_name") or game.id
    if _SAFE_PLUGIN.match(wanted):
        return wanted
    safe = slugify(wanted)[:32].strip("-") or game.id
    warnings.append(f"plugin name {wanted!r} is not a safe folder name (ASCII letters, digits, - and _, at most "
                    f"32); the plugin folder is {safe!r}")
    return safe
