"""The print shops and what each one asks for: card products, pixel sizes, colour, file order and names.

Every figure here is in ``docs/printing.md`` ("Print shops") with the page it comes from. A product is a trim
size and a bleed in inches at the shop's resolution, so its pixel size is exact: MakePlayingCards' poker card
is 2.5 x 3.5 in plus 0.12 in a side, 822 x 1122 pixels at 300 dpi. A game's card is printed on the product
whose trim is within ``MATCH_MM`` of it (a 63 x 88 mm card on a 2.5 x 3.5 in product, 63.5 x 88.9 mm), drawn in
its middle at its own size (``images.shop_image``). A shop with no such product is an error naming the sizes it has.
"""

from __future__ import annotations

from dataclasses import dataclass

from carddb.errors import InputError

MM_PER_INCH = 25.4
MATCH_MM = 1.5  # how far a game's card may be from a product's trim, per side length, to print on it
GENERIC_BLEED_MM = 3.0  # the European print shops' bleed (research/printing.md, MB Print)


@dataclass(frozen=True)
class Product:
    """A card a shop prints: its trim and bleed (per edge) in millimetres."""

    name: str
    trim_mm: tuple[float, float]
    bleed_mm: float
    label: str  # how the shop names the size, for messages

    def pixels(self, dpi: int) -> tuple[int, int]:
        """The image's size with its bleed, ``dpi`` pixels an inch."""
        return (_px(self.trim_mm[0] + 2 * self.bleed_mm, dpi), _px(self.trim_mm[1] + 2 * self.bleed_mm, dpi))

    def fits(self, card_mm: tuple[float, float]) -> bool:
        return all(abs(a - b) <= MATCH_MM for a, b in zip(self.trim_mm, card_mm, strict=True))


@dataclass(frozen=True)
class Service:
    """One print shop: its products (empty: any size, the generic shop) and how its uploader takes files."""

    id: str
    name: str
    products: tuple[Product, ...]
    image_format: str  # "png" or "jpg": the card images
    pdf_colour: str  # "rgb", or "cmyk" where the shop asks for CMYK PDFs
    back_first: bool  # the PDF gives each card's back before its front (DriveThruCards)
    file_per_copy: bool  # False: one image per distinct card, its count in order.csv (The Game Crafter)
    upload: str  # what to do with the folder, said after the export
    dpi: int = 300

    def product_for(self, card_name: str, card_mm: tuple[float, float]) -> Product:
        if not self.products:
            return Product(card_name, card_mm, GENERIC_BLEED_MM, _mm(card_mm))
        for product in self.products:
            if product.fits(card_mm):
                return product
        offered = "; ".join(f"{p.name} ({p.label}, {_mm(p.trim_mm)})" for p in self.products)
        raise InputError(f"{self.name} has no card of {_mm(card_mm)} ({card_name}); it prints {offered}",
                         hint="choose another size with --card, or --service generic for any size")


def _px(mm: float, dpi: int) -> int:
    return round(mm / MM_PER_INCH * dpi)


def _mm(size: tuple[float, float]) -> str:
    return f"{size[0]:g} x {size[1]:g} mm"


def _inches(width: float, height: float, bleed: float, name: str = "poker") -> Product:
    return Product(name, (width * MM_PER_INCH, height * MM_PER_INCH), bleed * MM_PER_INCH,
                   f"{width:g} x {height:g} in")


SERVICES: dict[str, Service] = {
    # 822 x 1122 px: 2.5 x 3.5 in with 36 px (0.12 in) a side at 300 dpi; PNG or JPG images, RGB.
    "makeplayingcards": Service("makeplayingcards", "MakePlayingCards", (_inches(2.5, 3.5, 0.12),), "png", "rgb",
                                back_first=False, file_per_copy=True,
                                upload="on makeplayingcards.com pick poker-size custom cards, upload fronts/ in name "
                                       "order and back.png as the same back for every card"),
    # 825 x 1125 px: 2.5 x 3.5 in with 1/8 in a side; PNG or JPG, RGB only ("CMYK images will be rejected").
    "thegamecrafter": Service("thegamecrafter", "The Game Crafter", (_inches(2.5, 3.5, 0.125),), "png", "rgb",
                              back_first=False, file_per_copy=False,
                              upload="make a poker deck on thegamecrafter.com, upload back.png as its back and "
                                     "fronts/ as its cards, then give each card its quantity from order.csv"),
    # 2.75 x 3.75 in with the 1/8 in bleed; one PDF a deck, back then front of each card, CMYK, no PNG images.
    "drivethrucards": Service("drivethrucards", "DriveThruCards", (_inches(2.5, 3.5, 0.125),), "jpg", "cmyk",
                              back_first=True, file_per_copy=True,
                              upload="cards.pdf is the deck's one PDF (each card's back, then its front); run "
                                     "it through a PDF/X-1a:2003 preflight, then upload it to DriveThruCards"),
    # Any size: the game's card with 3 mm of bleed, sRGB PNG, front then back.
    "generic": Service("generic", "a generic print shop", (), "png", "rgb", back_first=False, file_per_copy=True,
                       upload="send cards.pdf (one card a page, each back after its front), or fronts/ and "
                              "back.png, to the shop"),
}


def service_named(name: str | None) -> Service:
    """The service called ``name`` (or an alias: mpc, tgc, dtc); an ``InputError`` listing them otherwise."""
    if name is None or not name.strip():
        raise InputError("name the print shop with --service; the services are "
                         + ", ".join(f"{s.id} ({s.name})" for s in SERVICES.values()))
    key = name.strip().lower().replace(" ", "").replace("-", "").replace("_", "")
    aliases = {"mpc": "makeplayingcards", "tgc": "thegamecrafter", "dtc": "drivethrucards",
               "drivethru": "drivethrucards"}
    service = SERVICES.get(aliases.get(key, key))
    if service is None:
        raise InputError(f"no print shop is called {name!r}; the services are {', '.join(SERVICES)}")
    return service
