"""Card face layout: templates + a card -> drawing operations in millimetres. Pure: draws and writes nothing.

Public API::

    load_templates(workspace_root, game) -> TemplateSet
    layout_face(templates, card, *, bleed_mm=0.0) -> FaceLayout
    layout_back(templates, *, bleed_mm=0.0) -> FaceLayout

The names are loaded on first use: a build whose faces are all current only lists template files
(``carddb.layout.template``) and never pays for the layout engine.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from carddb.layout.engine import layout_back, layout_face
    from carddb.layout.ops import PT_MM, Contours, Ellipse, FaceLayout, ImageOp, Line, Polygon, Rect, TextFit, TextRun
    from carddb.layout.template import TemplateSet, load_templates

_HOMES = {"layout_back": "engine", "layout_face": "engine", "TemplateSet": "template", "load_templates": "template",
          **dict.fromkeys(("PT_MM", "Contours", "Ellipse", "FaceLayout", "ImageOp", "Line", "Polygon", "Rect",
                           "TextFit", "TextRun"), "ops")}

__all__ = ["PT_MM", "Contours", "Ellipse", "FaceLayout", "ImageOp", "Line", "Polygon", "Rect", "TemplateSet", "TextFit",
           "TextRun", "layout_back", "layout_face", "load_templates"]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'carddb.layout' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"carddb.layout.{home}"), name)
    globals()[name] = value
    return value
