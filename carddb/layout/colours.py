"""Colour helpers for the layout engine: parsing, mixing, and a colour from a hash."""

from __future__ import annotations

import colorsys
import re

_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")


def parse(value: object) -> str | None:
    """``#rrggbb`` lower-cased, or None for ``""``/``none`` (nothing drawn). Raises ValueError otherwise."""
    text = str(value).strip()
    if text == "" or text.casefold() == "none":
        return None
    if not _HEX.match(text):
        raise ValueError(f"{text!r} is not a colour; write it as \"#rrggbb\"")
    return text.lower()


def rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def hexa(r: float, g: float, b: float) -> str:
    return "#{:02x}{:02x}{:02x}".format(*(max(0, min(255, round(v))) for v in (r, g, b)))


def mix(a: str, b: str, t: float) -> str:
    """``a`` moved a fraction ``t`` of the way towards ``b``."""
    ra, rb = rgb(a), rgb(b)
    return hexa(*(x + (y - x) * t for x, y in zip(ra, rb, strict=True)))


def from_hash(digest: bytes, saturation: float = 0.55, value: float = 0.75) -> str:
    """A pleasant colour whose hue comes from a hash (an emblem or a placeholder for a value with no palette)."""
    r, g, b = colorsys.hsv_to_rgb(digest[0] / 255.0, saturation, value)
    return hexa(r * 255, g * 255, b * 255)


def luminance(colour: str) -> float:
    r, g, b = rgb(colour)
    return (0.299 * r + 0.587 * g + 0.114 * b) / 255.0
