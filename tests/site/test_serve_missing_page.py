"""`carddb site serve` answers a missing page with the site's own 404 page, as a published site would."""

from __future__ import annotations

import urllib.error
import urllib.request

import pytest


def test_a_missing_page_gets_the_sites_own_404_page(site) -> None:
    with pytest.raises(urllib.error.HTTPError) as missing:
        urllib.request.urlopen(site.url + "games/no-such-game/", timeout=10)
    assert missing.value.code == 404
    assert missing.value.headers["Content-Type"] == "text/html; charset=utf-8"
    page = missing.value.read().decode("utf-8")
    assert page == (site.folder / "404.html").read_text(encoding="utf-8")
    assert "<title>" in page and "Fan card games" in page and "404" in page


def test_a_page_that_exists_is_served_as_before(site) -> None:
    with urllib.request.urlopen(site.url, timeout=10) as home:
        assert home.status == 200 and "Fan card games" in home.read().decode("utf-8")
