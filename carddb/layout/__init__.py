"""Card face layout: templates + a card -> drawing operations in millimetres. Pure: draws and writes nothing.

Public API::

    load_templates(workspace_root, game) -> TemplateSet
    layout_face(templates, card, *, bleed_mm=0.0) -> FaceLayout
    layout_back(templates, *, bleed_mm=0.0) -> FaceLayout
"""

from carddb.layout.engine import layout_back, layout_face
from carddb.layout.ops import PT_MM, Ellipse, FaceLayout, ImageOp, Line, Polygon, Rect, TextFit, TextRun
from carddb.layout.template import TemplateSet, load_templates

__all__ = ["PT_MM", "Ellipse", "FaceLayout", "ImageOp", "Line", "Polygon", "Rect", "TemplateSet", "TextFit",
           "TextRun", "layout_back", "layout_face", "load_templates"]
