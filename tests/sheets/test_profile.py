"""Printer profiles (read fail-closed) and the arithmetic from calibration readings to a correction."""

from __future__ import annotations

import math

import pytest

from carddb.errors import InputError
from carddb.layout.impose import Margins, apply, back_transform
from carddb.layout.printer_profile import (
    PrinterProfile,
    front_index_lines,
    profile_from_readings,
    read_profile,
    stations,
)


def test_a_profile_reads_back_what_it_wrote(tmp_path):
    profile = PrinterProfile("office laser", (0.5, -1.25), 0.12, Margins(5, 4, 12, 4))
    path = tmp_path / "laser.toml"
    path.write_text(profile.to_toml(), encoding="utf-8")
    assert read_profile(path) == profile
    assert path.read_text(encoding="utf-8") == (
        "# carddb printer profile (see 'carddb print calibration')\n"
        'name = "office laser"\nback_offset_mm = [0.5, -1.25]\nback_rotation_deg = 0.12\n'
        "margins_mm = [5, 4, 12, 4]\n")


@pytest.mark.parametrize(("text", "message"), [
    ("back_offset_mm = [1, 2", "not valid TOML"),
    ("back_offset = [1, 2]", "unknown key 'back_offset'"),
    ("back_offset_mm = [1]", "back_offset_mm must be a list of 2 numbers"),
    ("back_offset_mm = ['a', 2]", "back_offset_mm must be a number"),
    ("back_rotation_deg = 'left'", "back_rotation_deg must be a number"),
    ("back_rotation_deg = 30", "more than 5 degrees"),
    ("back_offset_mm = [25, 0]", "more than 20 mm"),
    ("margins_mm = [5, 5, -1, 5]", "margins_mm must be zero or more"),
    ("name = 3", "name must be text"),
])
def test_a_malformed_profile_is_refused_with_the_file_and_key(tmp_path, text, message):
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match=message) as caught:
        read_profile(path)
    assert str(path) in str(caught.value)


def test_a_missing_or_binary_profile(tmp_path):
    with pytest.raises(InputError, match="no such printer profile"):
        read_profile(tmp_path / "none.toml")
    (tmp_path / "bin.toml").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    with pytest.raises(InputError, match="binary"):
        read_profile(tmp_path / "bin.toml")
    (tmp_path / "latin.toml").write_bytes(b"name = '\xe9'")
    with pytest.raises(InputError, match="UTF-8"):
        read_profile(tmp_path / "latin.toml")


def test_readings_of_a_pure_shift():
    profile = profile_from_readings(210, 297, top=1.5, bottom=1.5, left=-0.5, right=-0.5)
    assert (profile.back_offset, profile.back_rotation) == ((1.5, -0.5), 0.0)


def test_readings_that_differ_top_to_bottom_mean_a_turn():
    # Rulers 173 mm apart (top and bottom on A4); 0.5 mm more at the bottom than at the top.
    profile = profile_from_readings(210, 297, top=0.0, bottom=0.5, left=0.0, right=0.0)
    assert profile.back_offset == (0.25, 0.0)
    assert profile.back_rotation == round(math.degrees(0.5 / 173) / 2, 4)


def test_the_correction_cancels_a_simulated_printer_error():
    """A printer that turns backs by 0.2 degrees and shifts them by (-1.2, 0.8) mm: read the rulers as a user
    would, make the profile, and the corrected backs land where they should within 0.05 mm."""
    w, h = 210.0, 297.0
    error = back_transform(w, h, (-1.2, 0.8), 0.2)
    readings = {}
    for station in stations(w, h):
        lands = apply(error, station.x, station.y)  # where the ruler's zero actually prints
        moved = lands[0] - station.x if station.axis == "x" else lands[1] - station.y
        readings[station.name] = -moved  # the front line sits on the tick that reads minus the error
    profile = profile_from_readings(w, h, **readings)
    corrected = back_transform(w, h, profile.back_offset, profile.back_rotation)
    for x, y in ((10, 10), (200, 287), (105, 148.5), (10, 287)):
        fixed = apply(error, *apply(corrected, x, y))
        assert abs(fixed[0] - x) < 0.05 and abs(fixed[1] - y) < 0.05


def test_a_reading_off_the_ruler_is_refused():
    with pytest.raises(InputError, match="the left reading 7 is off the ruler"):
        profile_from_readings(210, 297, top=0, bottom=0, left=7, right=0)


def test_readings_add_to_the_profile_in_force():
    base = PrinterProfile("laser", (1.0, 1.0), 0.1)
    profile = profile_from_readings(210, 297, top=0.5, bottom=0.5, left=0, right=0, base=base)
    assert (profile.name, profile.back_offset, profile.back_rotation) == ("laser", (1.5, 1.0), 0.1)


@pytest.mark.parametrize(("flip", "top_line_y", "left_line_x"), [("long", 235.0, 160.0), ("short", 62.0, 50.0)])
def test_front_lines_sit_behind_the_rulers(flip, top_line_y, left_line_x):
    top, _bottom, left, _right = front_index_lines(210, 297, flip)
    assert top.x0 == top.x1 == 105.0 and (top.y0, top.y1) == (top_line_y - 36, top_line_y + 36)
    # Long-edge flip keeps rows (the left ruler is behind a line on the front's right); short-edge swaps them.
    assert left.y0 == left.y1 == 148.5 and (left.x0 + left.x1) / 2 == left_line_x
