"""The sitemap as ``carddb site serve`` sends it: its addresses moved to the origin the site is served from.

A site is built for its ``site_url`` (``site/mkdocs.yml``, ``--site-url``), and the only use a browser makes of that
address is Material's instant navigation: it reads ``sitemap.xml`` and takes over a click only on a link the sitemap
names, comparing scheme, host *and port*. Serving on another port (``--port 0``, a busy 8000) would then load every
page whole. Building the site for the served address instead would make each page differ (its canonical link) from
what ``carddb build`` made, so serve and build would each rebuild the other's site. So the pages stay as built and
the server rewrites the sitemap as it sends it, as it adds the live-reload script: nothing of this is in a built site.
"""

from __future__ import annotations

import re

SITEMAP = "/sitemap.xml"
_LOC = re.compile(rb"<loc>([^<]*)</loc>")


def served_sitemap(xml: bytes, origin: str) -> bytes:
    """``xml`` with the address the site was built for replaced by ``origin`` (``http://127.0.0.1:8123/``) in every
    ``<loc>``. The built address is the shortest one listed (the home page's, which every other extends); a
    sitemap without one that prefixes them all is sent unchanged."""
    locations = _LOC.findall(xml)
    if not locations:
        return xml
    built = min(locations, key=len)
    if not built.endswith(b"/") or not all(loc.startswith(built) for loc in locations):
        return xml
    served = origin.encode()
    return _LOC.sub(lambda found: b"<loc>" + served + found[1][len(built):] + b"</loc>", xml)
