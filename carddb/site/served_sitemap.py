"""The sitemap as ``carddb site serve`` sends it: its addresses moved to the origin the site is served from; and
the pages and client files of a site built for this computer, moved the same way.

A site is built for its ``site_url`` (``site/mkdocs.yml``, ``--site-url``), and the only use a browser makes of that
address is Material's instant navigation: it reads ``sitemap.xml`` and takes over a click only on a link the sitemap
names, comparing scheme, host *and port*. Serving on another port (``--port 0``, a busy 8000) would then load every
page whole. Building the site for the served address instead would make each page differ (its canonical link) from
what ``carddb build`` made, so serve and build would each rebuild the other's site. So the pages stay as built and
the server rewrites the sitemap as it sends it, as it adds the live-reload script: nothing of this is in a built site.

A site built for this computer's own address (``http://127.0.0.1:8000/``, the default) names it in its "Play online"
page and in the client files it hosts (LackeyCCG's updatelist, Tabletop Simulator's image addresses); served on
another port, those would send a client to nothing. The server moves that address to its own in what it sends, as
for the sitemap. A site built for a published address keeps it: those files are for other players.
"""

from __future__ import annotations

import re

from carddb.exporters.published import is_published

SITEMAP = "/sitemap.xml"
_LOC = re.compile(rb"<loc>([^<]*)</loc>")


def built_address(xml: bytes) -> bytes | None:
    """The address a site was built for, from its sitemap: the shortest ``<loc>``, which every other extends."""
    locations = _LOC.findall(xml)
    if not locations:
        return None
    built = min(locations, key=len)
    if not built.endswith(b"/") or not all(loc.startswith(built) for loc in locations):
        return None
    return built


def local_move(xml: bytes, origin: str) -> tuple[bytes, bytes] | None:
    """(the address the site was built for, ``origin``) when that address is this computer's own and not
    ``origin``: what ``served_copy`` replaces; None when a page or file is sent as built."""
    built = built_address(xml)
    if built is None or built == origin.encode() or is_published(built.decode("utf-8", "replace")):
        return None
    return built, origin.encode()


def served_copy(body: bytes, move: tuple[bytes, bytes] | None) -> bytes:
    """A page or client file with the built address moved to the served one (``local_move``)."""
    return body if move is None else body.replace(move[0], move[1])


def served_sitemap(xml: bytes, origin: str) -> bytes:
    """``xml`` with the address the site was built for replaced by ``origin`` (``http://127.0.0.1:8123/``) in every
    ``<loc>``. The built address is the shortest one listed (the home page's, which every other extends); a
    sitemap without one that prefixes them all is sent unchanged."""
    built = built_address(xml)
    if built is None:
        return xml
    served = origin.encode()
    return _LOC.sub(lambda found: b"<loc>" + served + found[1][len(built):] + b"</loc>", xml)
