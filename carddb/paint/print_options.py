"""What a user can choose when printing, and the one set of defaults every way of printing reads.

``carddb print`` takes its option defaults from ``PrintOptions``; the site's print panel is drawn with them
(``carddb.site.builder_page``) and the browser's request is read back through ``from_request``, where an
option left empty means the default, never zero. So the same deck with the same choices gives the same PDF
on the command line and in the browser. Light on purpose: the command line imports it to build its help.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from carddb.errors import InputError
from carddb.layout.impose import DEFAULT_FOLD_MARGIN_MM


@dataclass(frozen=True)
class PrintOptions:
    """What a user can choose; every text value is checked when the spec is built."""

    paper: str = "A4"
    card: str | None = None  # None: the game's own card size
    orientation: str = "auto"
    margins: str | None = None  # None: the profile's, else 5 mm
    gutter: float = 0.0
    bleed: float | None = None  # None: automatic (impose.auto_bleed: as much as 1.5 mm leaving room for the marks)
    marks: bool = True
    layout: str = "fronts"
    fold_margin: float = DEFAULT_FOLD_MARGIN_MM
    header: bool = True
    deck_list: bool = False
    raster: bool = False
    dpi: int = 300
    profile: str | None = None
    max_mb: float | None = None
    grid: str | None = None  # "3x3": demand columns x rows
    faces_dir: str | None = None  # where raster faces are cached (default: the build's output/.carddb/cache)
    strict: bool = False  # fail, instead of warning, when a card's art is coarser than the print needs


DEFAULTS = PrintOptions()

#: What the browser's print panel may send: the options that make sense without a file system.
BROWSER_OPTIONS = ("paper", "card", "orientation", "margins", "gutter", "bleed", "marks", "layout", "fold_margin",
                   "header", "deck_list", "grid")


def from_request(request: Mapping[str, Any]) -> PrintOptions:
    """The options of a browser print request: a missing, null or empty value is the default."""
    unknown = sorted(set(request) - set(BROWSER_OPTIONS))
    if unknown:
        raise InputError(f"unknown print option {unknown[0]!r}", hint=f"use {', '.join(BROWSER_OPTIONS)}")
    kinds = {f.name: type(getattr(DEFAULTS, f.name)) for f in fields(PrintOptions)}
    chosen: dict[str, Any] = {}
    for name, value in request.items():
        if value is None or value == "":
            continue
        kind = kinds[name]
        if kind is bool:
            chosen[name] = bool(value)
        elif kind is float or name in ("bleed", "gutter", "fold_margin"):
            number = float(value)
            if math.isnan(number) or math.isinf(number):
                raise InputError(f"{name} must be a number of millimetres, not {value!r}")
            chosen[name] = number
        else:
            chosen[name] = str(value)
    return PrintOptions(**chosen)
