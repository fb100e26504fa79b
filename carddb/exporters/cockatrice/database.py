"""Writing a ``cockatrice_carddatabase`` version 4 file in the element order of Cockatrice's ``cards.xsd``.

Cockatrice's parser ignores element order but the schema does not, so the order is the schema's (``name``,
``text``, ``prop``, ``set``..., ``token``, ``tablerow``): a file that validates means something. No
``<formats>`` block (the schema lags the client and rejects it). Booleans are written ``1``, the only
true the client reads. Characters XML cannot hold are dropped (``carddb.core.decks.cockatrice.xml_safe``).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

from carddb.core.decks.cockatrice import xml_safe

VERSION = "4"


@dataclass
class SetEntry:
    name: str  # short name
    longname: str
    settype: str = "Custom"


@dataclass
class PrintingEntry:
    set: str
    num: str
    rarity: str = ""


@dataclass
class CardEntry:
    name: str
    text: str
    props: list[tuple[str, str]] = field(default_factory=list)
    printings: list[PrintingEntry] = field(default_factory=list)
    tablerow: int = 1


def write_database(sets: list[SetEntry], cards: list[CardEntry], *, author: str, created: str,
                   source: str) -> bytes:
    root = ET.Element("cockatrice_carddatabase", version=VERSION)
    info = ET.SubElement(root, "info")
    for tag, value in (("author", author), ("createdAt", created), ("sourceVersion", source)):
        ET.SubElement(info, tag).text = xml_safe(value)
    set_list = ET.SubElement(root, "sets")
    for entry in sets:
        element = ET.SubElement(set_list, "set")
        for tag, value in (("name", entry.name), ("longname", entry.longname), ("settype", entry.settype)):
            ET.SubElement(element, tag).text = xml_safe(value)
    card_list = ET.SubElement(root, "cards")
    for card in cards:
        element = ET.SubElement(card_list, "card")
        ET.SubElement(element, "name").text = xml_safe(card.name)
        ET.SubElement(element, "text").text = xml_safe(card.text)
        if card.props:
            props = ET.SubElement(element, "prop")
            for tag, value in card.props:
                ET.SubElement(props, tag).text = xml_safe(value)
        for printing in card.printings:
            attributes = {"num": xml_safe(printing.num)}
            if printing.rarity:
                attributes["rarity"] = xml_safe(printing.rarity)
            ET.SubElement(element, "set", attributes).text = printing.set
        ET.SubElement(element, "tablerow").text = str(card.tablerow)
    ET.indent(root, space="  ")
    body = ET.tostring(root, encoding="utf-8", xml_declaration=False)
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + body + b"\n"
