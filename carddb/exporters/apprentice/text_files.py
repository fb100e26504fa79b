"""The text files of an Apprentice patch: ``Expan.dat`` and the classic spoiler list.

``Expan.dat`` (``research/apprentice.md`` §1.3): CRLF, one ``XX-Full Set Name`` line per set, then the
rarity lines ``-C-Common`` ... The spoiler follows MSE's ``export_mws`` layout exactly (§1.6): ``Key:\\tvalue``
lines, continuation lines indented by two tabs, a blank line after each card, CRLF.
"""

from __future__ import annotations

from datetime import datetime

from carddb.exporters.apprentice.cardinfo import ARTIFACT, COLOR_BITS, GOLD, LAND, Record

RARITY_NAMES = {"C": "Common", "U": "Uncommon", "R": "Rare", "M": "Mythic Rare"}


def build_expan(lines: list[tuple[str, str]], rarities: list[str]) -> str:
    out = [f"{code}-{name}" for code, name in lines]
    out += [f"-{letter}-{RARITY_NAMES.get(letter, letter)}" for letter in rarities]
    return "\r\n".join(out) + "\r\n"


def spoiler_color(color: int) -> str:
    if color & GOLD:
        return "Gld"
    if color & LAND:
        return "Lnd"
    for letter, bit in COLOR_BITS.items():
        if color == bit:
            return letter
    return "Art" if color & ARTIFACT or not color else "Gld"


def _continued(text: str) -> str:
    return "\n\t\t".join(text.replace("\r\n", "\n").split("\n"))


def build_spoiler(title: str, entries: list[tuple[Record, str, str, str]], created: datetime) -> str:
    """``entries``: (record, rarity letter, card number, artist) of one set, in card order."""
    lines = [f"{title} Spoiler List", "Set exported using carddb", "",
             f"Spoiler List created on {created:%Y-%m-%d %H:%M:%S}", ""]
    for record, rarity, number, artist in entries:
        lines += [f"Card Name:\t{record.name}", f"Card Color:\t{spoiler_color(record.color)}",
                  f"Mana Cost:\t{record.cost}", f"Type & Class:\t{record.type}", f"Pow/Tou:\t{record.pt}",
                  f"Card Text:\t{_continued(record.text)}", f"Flavor Text:\t{_continued(record.flavor)}",
                  f"Artist:\t\t{artist}", f"Rarity:\t\t{rarity}", f"Card #:\t\t{number}", ""]
    return ("\n".join(lines) + "\n").replace("\n", "\r\n")
