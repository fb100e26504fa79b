"""Opening an image in the system's own viewer (``carddb render --card NAME --open``)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path


def open_with_viewer(path: Path) -> str | None:
    """Open ``path`` with the platform's viewer, without waiting for it; a sentence saying why not, or None."""
    if sys.platform == "darwin":
        command = ["open", str(path)]
    elif sys.platform == "win32":
        os.startfile(path)  # type: ignore[attr-defined]
        return None
    else:
        if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
            return "no display to open it on (DISPLAY is not set); the image is at the path above"
        opener = shutil.which("xdg-open")
        if opener is None:
            return "xdg-open is not installed; open the path above with any image viewer"
        command = [opener, str(path)]
    subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                     start_new_session=True)
    return None
