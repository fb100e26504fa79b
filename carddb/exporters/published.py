"""What the exports of a game share when they are published: the game's folder name, and the URLs of files put
on a web server (LackeyCCG's updatelist, Tabletop Simulator's image URLs)."""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import quote

from carddb.core.cards.slugs import slugify
from carddb.core.game.definition import GameDefinition
from carddb.core.limits import brief
from carddb.errors import InputError

_SAFE_PLUGIN = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
#: An address: http(s), then no space, quote or angle bracket up to the very end (``\Z``: ``$`` would let one final
#: newline through, and a newline splits every line of LackeyCCG's updatelist.txt in two).
_URL = re.compile(r"https?://[^\s<>\"']+\Z")
#: Longer than any address a browser or client keeps (a host name is at most 253 characters).
MAX_URL = 2000
MAX_HOST = 253


def _address_problem(url: str) -> str | None:
    """Why ``url`` is not a plain http(s) address to hand to every player's client, or None."""
    if len(url) > MAX_URL:
        return f"is {len(url):,} characters long (at most {MAX_URL:,})"
    if any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") for c in url):
        return "holds a control or invisible formatting character (a newline, a right-to-left override...)"
    if not _URL.match(url):
        return "is not an http:// or https:// address without spaces or quotes"
    return None


def check_base_url(base_url: str) -> str:
    """The base URL without a trailing slash; refuses anything but a plain http(s) URL."""
    problem = _address_problem(base_url)
    if problem:
        raise InputError(f"--base-url {brief(base_url)!r} {problem}")
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
    problem = _address_problem(site_url)
    if problem:
        raise InputError(f"site_url {shown!r} {problem}")
    try:
        parts = urlsplit(site_url)
        parts.port  # noqa: B018 - reading it checks it is a number
    except ValueError:
        raise InputError(f"site_url {shown!r} is not a valid URL") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise InputError(f"site_url {shown!r} is not an http:// or https:// address without spaces or quotes")
    if len(parts.hostname) > MAX_HOST:
        raise InputError(f"site_url {shown!r} names a host of {len(parts.hostname):,} characters (at most {MAX_HOST})")
    if parts.query or parts.fragment or "?" in site_url or "#" in site_url:
        raise InputError(f"site_url {shown!r} has a query or fragment; give the site's plain address")
    if parts.username is not None or parts.password is not None:
        raise InputError(f"site_url {shown!r} carries credentials; give the site's address without them")
    return site_url.rstrip("/") + "/"


def is_published(site_url: str) -> bool:
    """Whether other players can reach ``site_url``: any address but this machine's own."""
    from urllib.parse import urlsplit

    return (urlsplit(site_url).hostname or "").lower() not in LOOPBACK_HOSTS
