"""A one-piece reverse-tuck box sized to the deck it holds: panels as data in millimetres, then drawn.

The card (or its sleeve) and the deck's thickness, from the card count at the stock the designer chooses, give
the inside; a clearance and the paper's own thickness (caliper) give the panels. The flat layout::

                 [tuck ]
                 [lid  ] [dust]         [dust]
         [glue]  [back ] [side] [front] [side]      the front's top edge has a thumb notch
                         [dust] [bottom][dust]
                                [tuck  ]

Edges two panels share are folds (dashed), the others cuts (solid); the glue flap is tinted. Formulas follow
NullMember/PnPTuckBox (research/pnp-kit.md, section 2): glue clamp(0.8 depth, 8, 12), tuck clamp(0.8 depth, 12,
22), dust flaps clamp(0.85 depth, 6, 25), notch radius min(0.18 width, 12).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from carddb.errors import InputError

#: Stock presets: the thickness of one printed card in mm (paper by weight; a printed card glued to a backer).
STOCKS = {"80gsm": 0.10, "120gsm": 0.15, "160gsm": 0.19, "210gsm": 0.25, "250gsm": 0.28, "300gsm": 0.35,
          "backer": 0.45}
#: Sleeve presets: (mm added to the card's width and height, mm added to each card's thickness).
SLEEVES = {"none": (0.0, 0.0), "penny": (3.0, 0.08), "standard": (3.0, 0.10), "premium": (3.0, 0.24)}
DEFAULT_STOCK = "160gsm"
DEFAULT_SLEEVES = "penny"
CLEARANCE_MM = 1.0
CALIPER_MM = 0.3


def _clamp(value: float, low: float, high: float) -> float:
    return max(low, min(high, value))


def card_thickness(stock: str) -> float:
    """A stock preset's thickness, or a number of millimetres (``0.32``)."""
    if stock in STOCKS:
        return STOCKS[stock]
    try:
        value = float(stock)
    except ValueError:
        raise InputError(f"--stock must be one of {', '.join(STOCKS)} or a thickness in mm, not {stock!r}") from None
    if not 0.05 <= value <= 1.0:
        raise InputError(f"--stock {value:g} mm is not a card's thickness (0.05 to 1 mm)")
    return value


def sleeve(name: str) -> tuple[float, float]:
    if name not in SLEEVES:
        raise InputError(f"--sleeves must be one of {', '.join(SLEEVES)}, not {name!r}")
    return SLEEVES[name]


@dataclass(frozen=True)
class Panel:
    name: str
    x: float
    y: float
    w: float
    h: float
    kind: str = "panel"  # panel | flap | glue

    def edges(self) -> list[tuple[tuple[float, float], tuple[float, float]]]:
        x0, y0, x1, y1 = self.x, self.y, self.x + self.w, self.y + self.h
        return [((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x0, y1), (x1, y1)), ((x0, y0), (x0, y1))]


@dataclass(frozen=True)
class TuckBox:
    """The box for ``cards`` cards of ``card_w`` x ``card_h`` mm: what it must hold and its panels (mm)."""

    cards: int
    card_w: float
    card_h: float
    held_w: float  # the card with its sleeve
    held_h: float
    deck_mm: float  # the deck's thickness
    width: float  # panel sizes: front/back width, height, side depth
    height: float
    depth: float
    glue: float
    tuck: float
    dust: float
    notch: float

    @property
    def flat(self) -> tuple[float, float]:
        return self.glue + 2 * self.width + 2 * self.depth, 2 * self.tuck + 2 * self.depth + self.height

    def panels(self) -> list[Panel]:
        g, w, d, h, k, s = self.glue, self.width, self.depth, self.height, self.tuck, self.dust
        x_back, x_side1, x_front, x_side2 = g, g + w, g + w + d, g + 2 * w + d
        y_main = k + d
        y_top = y_main + h
        return [
            Panel("glue", 0, y_main, g, h, "glue"),
            Panel("back", x_back, y_main, w, h),
            Panel("side", x_side1, y_main, d, h),
            Panel("front", x_front, y_main, w, h),
            Panel("side", x_side2, y_main, d, h),
            Panel("lid", x_back, y_top, w, d),
            Panel("tuck", x_back, y_top + d, w, k, "flap"),
            Panel("dust", x_side1, y_top, d, s, "flap"),
            Panel("dust", x_side2, y_top, d, s, "flap"),
            Panel("bottom", x_front, y_main - d, w, d),
            Panel("tuck", x_front, 0, w, k, "flap"),
            Panel("dust", x_side1, y_main - s, d, s, "flap"),
            Panel("dust", x_side2, y_main - s, d, s, "flap"),
        ]

    def folds(self) -> list[tuple[tuple[float, float], tuple[float, float]]]:
        """The edges two panels share, each once."""
        seen: list[tuple[tuple[float, float], tuple[float, float]]] = []
        panels = self.panels()
        for index, panel in enumerate(panels):
            for edge in panel.edges():
                if any(_same(edge, other) for later in panels[index + 1:] for other in later.edges()):
                    seen.append(edge)
        return seen

    def cuts(self) -> list[tuple[tuple[float, float], tuple[float, float]]]:
        folds = self.folds()
        return [edge for panel in self.panels() for edge in panel.edges()
                if not any(_same(edge, fold) for fold in folds)]

    def problems(self) -> list[str]:
        """What the model fails to hold (the self-check's first half; the second re-measures the PDF)."""
        out = []
        if self.width - CALIPER_MM < self.held_w + CLEARANCE_MM - 1e-6:
            out.append(f"inside width {self.width - CALIPER_MM:.1f} mm < card {self.held_w:g} mm + clearance")
        if self.height - CALIPER_MM < self.held_h + CLEARANCE_MM - 1e-6:
            out.append(f"inside height {self.height - CALIPER_MM:.1f} mm < card {self.held_h:g} mm + clearance")
        if self.depth - CALIPER_MM < self.deck_mm + CLEARANCE_MM - 1e-6:
            out.append(f"inside depth {self.depth - CALIPER_MM:.1f} mm < deck {self.deck_mm:.1f} mm + clearance")
        if self.tuck < 12 - 1e-6 or self.glue < 8 - 1e-6:
            out.append(f"tuck flap {self.tuck:.1f} mm or glue flap {self.glue:.1f} mm too small to hold")
        return out


def _same(a: tuple[tuple[float, float], tuple[float, float]],
          b: tuple[tuple[float, float], tuple[float, float]]) -> bool:
    return all(abs(p - q) < 1e-6 for pa, pb in zip(a, b, strict=True) for p, q in zip(pa, pb, strict=True))


def tuck_box(cards: int, card_size: tuple[float, float], *, stock: str = DEFAULT_STOCK,
             sleeves: str = DEFAULT_SLEEVES) -> TuckBox:
    """The box for a deck of ``cards`` cards of ``card_size`` (mm) at ``stock``, in ``sleeves``."""
    if cards < 1:
        raise InputError("the tuck box needs at least one card to hold")
    grow, per_card_sleeve = sleeve(sleeves)
    held_w, held_h = card_size[0] + grow, card_size[1] + grow
    deck = cards * (card_thickness(stock) + per_card_sleeve)
    width = held_w + CLEARANCE_MM + CALIPER_MM
    height = held_h + CLEARANCE_MM + CALIPER_MM
    depth = deck + CLEARANCE_MM + CALIPER_MM
    return TuckBox(cards=cards, card_w=card_size[0], card_h=card_size[1], held_w=held_w, held_h=held_h,
                   deck_mm=deck, width=width, height=height, depth=depth, glue=_clamp(0.8 * depth, 8, 12),
                   tuck=_clamp(0.8 * depth, 12, 22), dust=min(_clamp(0.85 * depth, 6, 25), width / 2),
                   notch=min(0.18 * width, 12))


def draw_tuck_box(c: object, box: TuckBox, origin: tuple[float, float], *, name: str, subtitle: str,
                  back: Callable[[object, float, float, float, float], None] | None) -> None:
    """Draw ``box`` with its flat layout's lower-left corner at ``origin`` (points) on canvas ``c``.
    ``back(c, x, y, w, h)`` paints the game's card back into a rectangle (points)."""
    from reportlab.lib.units import mm

    from carddb.kit import style
    from carddb.kit.style import BOLD, SANS

    ox, oy = origin

    def pt(x: float, y: float) -> tuple[float, float]:
        return ox + x * mm, oy + y * mm

    c.saveState()
    for panel in box.panels():
        x, y = pt(panel.x, panel.y)
        if panel.kind == "glue":
            c.setFillColor(style.GLUE_FILL)
            c.rect(x, y, panel.w * mm, panel.h * mm, stroke=0, fill=1)
            c.saveState()
            c.translate(x + panel.w * mm / 2 + 1.2 * mm, y + panel.h * mm / 2)
            c.rotate(90)
            c.setFillColor(style.MUTED)
            c.setFont(SANS, 7)
            c.drawCentredString(0, 0, "glue")
            c.restoreState()
    front = next(p for p in box.panels() if p.name == "front")
    back_panel = next(p for p in box.panels() if p.name == "back")
    if back is not None:
        inset = 2.0
        bx, by = pt(back_panel.x + inset, back_panel.y + inset)
        back(c, bx, by, (back_panel.w - 2 * inset) * mm, (back_panel.h - 2 * inset) * mm)
    fx, fy = pt(front.x, front.y)
    c.setFillColor(style.ACCENT)
    title_size = style.canvas_font_fits(style.plain(name), BOLD, 14, (front.w - 8) * mm)
    c.setFont(BOLD, title_size)
    c.drawCentredString(fx + front.w * mm / 2, fy + front.h * mm * 0.58, style.plain(name))
    c.setFillColor(style.INK)
    c.setFont(SANS, style.canvas_font_fits(style.plain(subtitle), SANS, 8, (front.w - 8) * mm))
    c.drawCentredString(fx + front.w * mm / 2, fy + front.h * mm * 0.58 - 6 * mm, style.plain(subtitle))
    for panel in box.panels():
        if panel.name != "side":
            continue
        sx, sy = pt(panel.x, panel.y)
        c.saveState()
        c.translate(sx + panel.w * mm / 2, sy + panel.h * mm / 2)
        c.rotate(90)
        c.setFillColor(style.ACCENT)
        c.setFont(BOLD, style.canvas_font_fits(style.plain(name), BOLD, min(10, panel.w * 0.6 * 72 / 25.4),
                                               (panel.h - 6) * mm))
        c.drawCentredString(0, -1.2 * mm, style.plain(name))
        c.restoreState()
    # Folds first (dashed, in the fold colour the self-check finds), then the cuts over them.
    c.setStrokeColor(style.FOLD)
    c.setLineWidth(0.5)
    c.setDash(3, 2)
    for (x0, y0), (x1, y1) in box.folds():
        c.line(*pt(x0, y0), *pt(x1, y1))
    c.setDash()
    c.setStrokeColor(style.INK)
    c.setLineWidth(0.6)
    notch_edge = ((front.x, front.y + front.h), (front.x + front.w, front.y + front.h))
    for edge in box.cuts():
        if _same(edge, notch_edge):
            _notched(c, pt, edge, box.notch)
        else:
            (x0, y0), (x1, y1) = edge
            c.line(*pt(x0, y0), *pt(x1, y1))
    c.restoreState()


def _notched(c: object, pt: Callable[[float, float], tuple[float, float]],
             edge: tuple[tuple[float, float], tuple[float, float]], radius: float) -> None:
    """The front's top edge with a half-round thumb notch in its middle."""
    from reportlab.lib.units import mm

    (x0, y), (x1, _) = edge
    middle = (x0 + x1) / 2
    c.line(*pt(x0, y), *pt(middle - radius, y))
    c.line(*pt(middle + radius, y), *pt(x1, y))
    cx, cy = pt(middle, y)
    c.arc(cx - radius * mm, cy - radius * mm, cx + radius * mm, cy + radius * mm, startAng=180, extent=180)
