"""The duplex calibration sheet measured back from its PDF: large numbered rulers whose numbers never touch,
and lines that cross them at the number a printer's error calls for."""

from __future__ import annotations

import itertools
import re

import pdfplumber
import pytest

from carddb.errors import InputError
from carddb.layout.impose import paper_size
from carddb.layout.printer_profile import (
    RULER_HALF_MM,
    front_index_lines,
    mirror_point,
    ruler_line,
    ruler_ticks,
    stations,
)
from carddb.paint.calibration import write_calibration

from .conftest import MM

LABEL = re.compile(r"^[+-]?\d$")


@pytest.fixture(params=["A4", "Letter"])
def sheet(request, tmp_path):
    paper = paper_size(request.param)
    path, _check = write_calibration(tmp_path / "cal.pdf", paper, "long")
    with pdfplumber.open(path) as pdf:
        back = pdf.pages[1]
        words = back.extract_words(extra_attrs=["size"])
        lines = [(ln["x0"] * MM, ln["top"] * MM, ln["x1"] * MM, ln["bottom"] * MM) for ln in back.lines]
        height = float(back.height) * MM
        front_lines = [(ln["x0"] * MM, (float(pdf.pages[0].height) - ln["bottom"]) * MM, ln["x1"] * MM,
                        (float(pdf.pages[0].height) - ln["top"]) * MM) for ln in pdf.pages[0].lines]
    return paper, words, lines, height, front_lines


def test_every_ruler_number_is_large_and_no_two_touch(sheet):
    _paper, words, _lines, _height, _front = sheet
    labels = [w for w in words if LABEL.match(w["text"]) and abs(w["size"] - 8.0) < 0.01]  # not the 8.5 pt text
    assert len(labels) == 4 * 11  # -5 to +5 on each of the four rulers
    for a, b in itertools.combinations(labels, 2):
        apart_x = max(b["x0"] - a["x1"], a["x0"] - b["x1"]) * MM
        apart_y = max(b["top"] - a["bottom"], a["top"] - b["bottom"]) * MM
        assert max(apart_x, apart_y) >= 1.0, (a["text"], b["text"])  # at least a millimetre between any two
    assert sorted({w["text"] for w in labels}, key=int) == ["-5", "-4", "-3", "-2", "-1", "0", "+1", "+2", "+3",
                                                              "+4", "+5"]


def test_the_rulers_are_60_mm_long_and_slanted_six_to_one(sheet):
    paper, _words, lines, height, _front = sheet
    w, h = sorted((paper.width, paper.height))
    long_lines = [ln for ln in lines if ((ln[2] - ln[0]) ** 2 + (ln[3] - ln[1]) ** 2) ** 0.5 > 50]
    assert len(long_lines) == 4
    for station in stations(w, h):
        line = ruler_line(station)
        found = [ln for ln in long_lines if abs(ln[0] - min(line.x0, line.x1)) < 0.05
                 and abs(height - ln[3] - min(line.y0, line.y1)) < 0.05]
        assert len(found) == 1, station.name
        across, along = abs(line.x1 - line.x0), abs(line.y1 - line.y0)
        if station.axis == "y":
            across, along = along, across
        assert (round(across, 6), round(along, 6)) == (10.0, 60.0)


@pytest.mark.parametrize("shift", [(0.0, 0.0), (1.5, -2.0), (-3.0, 4.5), (4.5, 0.5)])
def test_a_shifted_back_puts_the_front_line_on_the_number_that_corrects_it(shift):
    """Simulate a printer putting the back ``shift`` mm off; find where each front line crosses its moved ruler."""
    w, h = 210.0, 297.0
    dx, dy = shift
    for station, index in zip(stations(w, h), front_index_lines(w, h, "long"), strict=True):
        # the front line seen from the back (mirrored back into back-page coordinates)
        x0, y0 = mirror_point(index.x0, index.y0, w, h, "long")
        x1, y1 = mirror_point(index.x1, index.y1, w, h, "long")
        ruler = ruler_line(station)
        ax, ay, bx, by = ruler.x0 + dx, ruler.y0 + dy, ruler.x1 + dx, ruler.y1 + dy  # the ruler as printed
        if station.axis == "x":  # the front line is vertical at x0: where does the ruler reach that x?
            t = (x0 - ax) / (bx - ax)
            cross = (x0, ay + t * (by - ay))
            assert min(y0, y1) <= cross[1] <= max(y0, y1)
        else:
            t = (y0 - ay) / (by - ay)
            cross = (ax + t * (bx - ax), y0)
            assert min(x0, x1) <= cross[0] <= max(x0, x1)
        # the nearest tick, as printed, and the number it stands for
        ticks = ruler_ticks(station)
        nearest = min(ticks, key=lambda k: abs((k.tick.x0 + k.tick.x1) / 2 + dx - cross[0])
                      + abs((k.tick.y0 + k.tick.y1) / 2 + dy - cross[1]))
        assert nearest.value == (-dx if station.axis == "x" else -dy), station.name
    assert RULER_HALF_MM == 5.0


def test_paper_too_small_for_the_rulers_is_refused(tmp_path):
    with pytest.raises(InputError, match="needs paper of at least 180 x 240 mm"):
        write_calibration(tmp_path / "cal.pdf", paper_size("148x210"), "long")
    assert not (tmp_path / "cal.pdf").exists()
