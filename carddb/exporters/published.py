"""What the exports of a game share when they are published: the game's folder name, and the URLs of files put
on a web server (LackeyCCG's updatelist, Tabletop Simulator's image URLs)."""

from __future__ import annotations

import re
from urllib.parse import quote

from carddb.core.cards.slugs import slugify
from carddb.core.game.definition import GameDefinition
from carddb.core.limits import brief
from carddb.errors import InputError

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


#: Hosts that name the building machine itself: a site there is seen by nobody else.
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1", "0.0.0.0")


def check_site_url(site_url: str) -> str:
    """The site's address with one trailing slash; refuses anything but a plain http(s) address (no query, no
    fragment, no user name or password: every player's client would be handed them)."""
    from urllib.parse import urlsplit

    shown = brief(site_url)
    try:
        parts = urlsplit(site_url)
        parts.port  # noqa: B018 - reading it checks it is a number
    except ValueError:
        raise InputError(f"site_url {shown!r} is not a valid URL") from None
    if parts.scheme not in ("http", "https") or not parts.hostname or not _URL.match(site_url):
        raise InputError(f"site_url {shown!r} is not an http:// or https:// address without spaces or quotes")
    if parts.query or parts.fragment or "?" in site_url or "#" in site_url:
        raise InputError(f"site_url {shown!r} has a query or fragment; give the site's plain address")
    if parts.username is not None or parts.password is not None:
        raise InputError(f"site_url {shown!r} carries credentials; give the site's address without them")
    return site_url.rstrip("/") + "/"


def is_published(site_url: str) -> bool:
    """Whether other players can reach ``site_url``: any address but this machine's own."""
    from urllib.parse import urlsplit

    return (urlsplit(site_url).hostname or "").lower() not in LOOPBACK_HOSTS
