"""Reading a print-shop folder back: which shop it is for, and the images in the order the uploader gets them.

``read_printshop`` takes only what is in the folder (the marker and ``order.csv``), so a test or a user can
check an export without the code that wrote it: every row's files must be there, and the counts add up.
"""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass, field
from pathlib import Path

from carddb.errors import InputError
from carddb.exporters.output import MARKER, inside
from carddb.exporters.printshop.export import ORDER_COLUMNS, ORDER_FILE, PDF_FILE, Row


@dataclass
class PrintShopFolder:
    root: Path
    service: str
    game: str
    product: str
    pixels: tuple[int, int]
    dpi: int
    rows: list[Row] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # a file order.csv names that is not there

    @property
    def cards(self) -> int:
        """The physical cards the order makes (every copy counted)."""
        return sum(row.copies for row in self.rows)

    @property
    def pdf(self) -> Path:
        return self.root / PDF_FILE

    def front(self, row: Row) -> Path:
        return inside(self.root, row.front)

    def back(self, row: Row) -> Path:
        return inside(self.root, row.back)


def read_printshop(folder: str | Path) -> PrintShopFolder:
    root = Path(folder)
    try:
        marker = json.loads((root / MARKER).read_text(encoding="utf-8"))
        text = (root / ORDER_FILE).read_text(encoding="utf-8")
    except (OSError, ValueError) as exc:
        raise InputError(f"{root}: not a carddb print-shop export ({exc})") from None
    if not isinstance(marker, dict) or marker.get("client") != "printshop":
        raise InputError(f"{root}: not a carddb print-shop export (its {MARKER} is for another client)")
    lines = list(csv.reader(text.splitlines()))
    if not lines or tuple(lines[0]) != ORDER_COLUMNS:
        raise InputError(f"{root / ORDER_FILE}: the first line is not {','.join(ORDER_COLUMNS)}")
    width, height = marker.get("pixels") or (0, 0)
    result = PrintShopFolder(root, str(marker.get("service")), str(marker.get("game")), str(marker.get("product")),
                             (int(width), int(height)), int(marker.get("dpi") or 0))
    for number, line in enumerate(lines[1:], 2):
        if len(line) != len(ORDER_COLUMNS) or not line[0].isdigit() or not line[3].isdigit():
            result.problems.append(f"{ORDER_FILE} line {number}: {line!r} is not {','.join(ORDER_COLUMNS)}")
            continue
        row = Row(int(line[0]), line[1], line[2], int(line[3]), line[4])
        for relative in (row.front, row.back):
            if not inside(root, relative).is_file():
                result.problems.append(f"{ORDER_FILE} line {number}: {relative} is missing")
        result.rows.append(row)
    if not result.pdf.is_file():
        result.problems.append(f"{PDF_FILE} is missing")
    return result
