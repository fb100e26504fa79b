"""Install from one URL: ``updatelist.txt`` and ``version.txt`` (``research/lackey.md`` §1.10-1.13).

``updatelist.txt``: ``<plugin>\\t<MM-DD-YY>``, then one ``plugins/<plugin>/<path>\\t<url>\\t<checksum>`` line
per file (every file, images included, so one click installs the whole plugin; the list does not name
itself), then ``CardGeneralURLs:`` with the image folders as a fallback for images added later.
``version.txt`` carries the same day as ``YYMMDD``. A player pastes the updatelist URL into LackeyCCG's
"Install or Update from URL!".
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from pathlib import Path
from xml.sax.saxutils import escape

from carddb.exporters.lackey.checksum import lackey_checksum
from carddb.exporters.output import Contents, contents
from carddb.exporters.published import url_for


def build_version(base_url: str, day: date, message: str) -> str:
    return ("<version>\n"
            f"<lastupdateYYMMDD>{day:%y%m%d}</lastupdateYYMMDD>\n"
            f"<versionurl>{escape(url_for(base_url, 'version.txt'))}</versionurl>\n"
            f"<updateurl>{escape(url_for(base_url, 'updatelist.txt'))}</updateurl>\n"
            f"<message>{escape(message)}</message>\n"
            "</version>\n")


def build_updatelist(plugin: str, base_url: str, day: date, files: Mapping[str, Contents | Path],
                     image_sets: list[str], known: Mapping[str, int] = {}) -> str:
    """``files`` maps each path inside the plugin folder to its bytes or the file holding them (a path, or a file of
    the previous export taken as it is: ``Kept``) (updatelist.txt
    itself excluded); ``known``, the checksums of some of them already found (the card images', kept in the
    export's manifest: those files are not read)."""
    lines = [f"{plugin}\t{day:%m-%d-%y}"]
    for relative in sorted(files):
        if relative in known:
            checksum = known[relative]
        else:
            data = files[relative]
            checksum = lackey_checksum(data.read_bytes() if isinstance(data, Path) else contents(data))
        lines.append(f"plugins/{plugin}/{relative}\t{url_for(base_url, relative)}\t{checksum}")
    if image_sets:
        lines.append("CardGeneralURLs:")
        lines += [url_for(base_url, f"sets/setimages/{name}/") for name in image_sets]
    return "\n".join(lines) + "\n"
