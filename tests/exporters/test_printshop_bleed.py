"""Every print-shop service with every game, each image read back for white in its bleed (the template's background
runs on into it, never a stretched edge or a white strip); a card of another size placed in the middle.
"""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops

from carddb.exporters.printshop import export_printshop
from carddb.exporters.printshop.reader import read_printshop

# Every print service with every game's faces drawn at print size (10 s): `make test` runs it, `make test-fast` not.
pytestmark = pytest.mark.slow


def bleed_band(image: Image.Image, bleed_px: int) -> list[Image.Image]:
    width, height = image.size
    return [image.crop(box) for box in ((0, 0, width, bleed_px), (0, height - bleed_px, width, height),
                                        (0, 0, bleed_px, height), (width - bleed_px, 0, width, height))]


def white_pixels(image: Image.Image) -> int:
    """Pixels all three of whose channels are over 240: paper showing."""
    mask = ImageChops.darker(ImageChops.darker(*image.split()[:2]), image.split()[2]).point(
        lambda v: 255 if v > 240 else 0)
    return mask.histogram()[255]


GAMES = ("minibattle", "shmod", "ssbm", "ssq", "website")


@pytest.fixture(scope="module")
def every_export(tmp_path_factory, catalogue, repo_root):
    """Every service with every game: a card of each kind (every template drawn) and the back. A game whose
    size the shop does not print goes on the shop's poker card."""
    from carddb.exporters.printshop.services import SERVICES

    out = tmp_path_factory.mktemp("every-printshop")
    folders = {}
    for game_id in GAMES:
        by_kind: dict[str, list[str]] = {}
        for card in catalogue.cards(game_id):
            by_kind.setdefault(card.kind, []).append(card.key)
        deck = "".join(f"1 {key}\n" for keys in by_kind.values() for key in keys[:1])
        chosen = (deck, "kinds.txt") if catalogue.game(game_id).zones else None  # ssq has no decks: every card
        for service in SERVICES:
            card_size = None if service == "generic" or game_id != "shmod" else "poker"
            report = export_printshop(repo_root, catalogue, game_id, out / f"{service}-{game_id}", service=service,
                                      deck_text=chosen, card=card_size)
            folders[service, game_id] = report
    return folders


@pytest.mark.parametrize("game_id", GAMES)
def test_no_print_shop_image_has_white_in_its_bleed(every_export, game_id):
    from carddb.exporters.printshop.services import SERVICES

    for service in SERVICES:
        folder = read_printshop(every_export[service, game_id].out_dir)
        assert folder.problems == []
        bleed = SERVICES[service].product_for("poker", (63.5, 88.9)).bleed_mm if service != "generic" else 3.0
        band = round(bleed / 25.4 * 300)
        files = {folder.front(row) for row in folder.rows} | {folder.back(folder.rows[0])}
        for path in sorted(files):
            with Image.open(path) as image:
                assert image.size == folder.pixels
                whites = [white_pixels(part) for part in bleed_band(image.convert("RGB"), band)]
                assert whites == [0, 0, 0, 0], f"{service} {game_id} {path.name}: white in the bleed {whites}"


def test_a_card_of_another_size_is_placed_in_the_middle_with_one_warning(every_export):
    """shmod's 59 x 86 mm cards on a poker product: said once, whatever the number of cards."""
    report = every_export["makeplayingcards", "shmod"]
    assert [w for w in report.warnings if "faces" in w] == [
        "the 59 x 86 mm faces are printed in the middle of the poker card (2.5 x 3.5 in): their edges are carried "
        "2.2 mm left and right and carried 1.4 mm top and bottom"]
