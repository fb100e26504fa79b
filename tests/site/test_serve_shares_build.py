"""``carddb site serve`` and ``carddb build`` make one site: serve right after build builds no page, build right after
serve builds none either, and the site either leaves is the one a clean build makes. The server, not the build,
gives the sitemap the origin it serves on (instant navigation needs it, port included)."""

from __future__ import annotations

import gzip
import re
import shutil
import threading
import urllib.request
from pathlib import Path

import pytest
from typer.testing import CliRunner

from carddb.app.build import build
from carddb.app.serve import serve_build
from carddb.catalogue.api import open_catalogue
from carddb.cli.main import app
from carddb.site.serve import make_server, server_url
from carddb.workspace import Workspace

REPO = Path(__file__).resolve().parents[2]
#: The address site/mkdocs.yml builds for when neither --site-url nor SITE_URL says another.
CONFIGURED = "http://127.0.0.1:8000/"

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    if not (REPO / "site" / "node_modules" / "pyodide").is_dir():
        pytest.skip("the site's Pyodide is not installed (npm ci --prefix site)")
    root = tmp_path_factory.mktemp("serve-build") / "ws"
    made = CliRunner().invoke(app, ["init", str(root), "--game", "mini", "--no-npm"], catch_exceptions=False)
    assert made.exit_code == 0, made.output
    (root / "site" / "node_modules").symlink_to(REPO / "site" / "node_modules", target_is_directory=True)
    return Workspace(root)


def catalogue(workspace: Workspace):  # type: ignore[no-untyped-def]
    return open_catalogue(str(workspace.output_dir / "catalogue.db"), str(workspace.root))


def site_files(workspace: Workspace) -> dict[str, bytes]:
    site = workspace.output_dir / "site"
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()}


def change_a_card(workspace: Workspace) -> None:
    path = workspace.game_dir("mini") / "cards" / "core.yaml"
    text = path.read_text(encoding="utf-8")
    changed = re.sub(r"text: ([\"']?)", r"text: \1Changed. ", text, count=1)
    assert changed != text
    path.write_text(changed, encoding="utf-8")


def test_serve_after_build_and_build_after_serve_build_no_page(workspace: Workspace) -> None:
    first = build(workspace, catalogue(workspace))
    assert not first.failures and "site" in first.redone
    served = serve_build(workspace, catalogue(workspace))
    assert not served.failures and "site" in served.up_to_date, served.redone

    change_a_card(workspace)
    served = serve_build(workspace, catalogue(workspace))
    built, total = map(int, served.redone["site"].split(" pages")[0].split(" of "))
    assert 0 < built < total  # the card's own pages, not every page
    # one list of steps: the exports, then the site once (it hosts their files), the proxy sheets said after it
    # (drawn beside it): a designer who prints after a save prints the edit
    def first(prefix: str) -> int:
        return next(number for number, line in enumerate(served.lines) if line.startswith(prefix))

    assert first("mini: LackeyCCG plugin") < first("mini: Cockatrice card database") < first("site: "), served.lines
    assert "mini sheets" in served.redone, served.redone
    sheets = next(number for number, line in enumerate(served.lines) if " proxy PDFs in " in line)
    assert first("site: ") < sheets, served.lines
    assert sum(line.startswith("site: ") and " pages, " in line for line in served.lines) == 1
    assert served.lines[-2].count("site (") == 1
    again = build(workspace, catalogue(workspace))
    assert not again.redone, again.redone  # serve left nothing for build to do, the sheets included

    left = site_files(workspace)
    shutil.rmtree(workspace.output_dir / "site")
    shutil.rmtree(workspace.output_dir / ".carddb" / "cache")
    build(workspace, catalogue(workspace))
    clean = site_files(workspace)
    assert sorted(left) == sorted(clean)
    assert [name for name in clean if left[name] != clean[name]] == []


def test_the_server_gives_the_sitemap_its_own_origin(workspace: Workspace) -> None:
    site = workspace.output_dir / "site"
    if not (site / "sitemap.xml").is_file():
        build(workspace, catalogue(workspace))
    built = (site / "sitemap.xml").read_text(encoding="utf-8")
    assert f"<loc>{CONFIGURED}</loc>" in built  # the site as built names the configured address
    server = make_server(site, "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = server_url(server)
        assert url != CONFIGURED
        request = urllib.request.Request(url + "sitemap.xml", headers={"Accept-Encoding": "gzip, br"})
        with urllib.request.urlopen(request, timeout=10) as answer:
            assert answer.headers.get("Content-Encoding") is None  # not MkDocs' sitemap.xml.gz, which names 8000
            sent = answer.read().decode("utf-8")
    finally:
        server.shutdown()
        server.server_close()
    assert sent == built.replace(f"<loc>{CONFIGURED}", f"<loc>{url}")
    assert re.findall(r"<loc>([^<]*)</loc>", sent) and all(
        loc.startswith(url) for loc in re.findall(r"<loc>([^<]*)</loc>", sent))
    assert gzip.decompress((site / "sitemap.xml.gz").read_bytes()).decode("utf-8") == built  # left as built


class Recorded:
    """A reporter that keeps what each task was told."""

    def __init__(self) -> None:
        self.told: dict[str, list[tuple[int, int | None]]] = {}

    def task(self, label: str, total: int | None = None):  # type: ignore[no-untyped-def]
        from carddb.progress import Task

        told = self.told.setdefault(label, [])
        done = [0]

        class Kept(Task):
            def __call__(self, count: int, of: int | None = None) -> None:
                done[0] = count
                told.append((count, of))

            def advance(self, steps: int = 1) -> None:
                done[0] += steps
                told.append((done[0], told[-1][1] if told else None))

        return Kept()


def test_a_terminal_is_told_n_of_m_pages_as_they_are_built(workspace: Workspace) -> None:
    build(workspace, catalogue(workspace))
    change_a_card(workspace)
    shown = Recorded()
    report = build(workspace, catalogue(workspace), progress=shown)  # type: ignore[arg-type]
    built, _total = map(int, report.redone["site"].split(" pages")[0].split(" of "))
    told = shown.told["site: pages"]
    assert told[0] == (0, built) and told[-1] == (built, built)
    assert [done for done, _ in told] == list(range(built + 1))  # one page at a time


def test_another_site_url_is_another_site(workspace: Workspace, monkeypatch: pytest.MonkeyPatch) -> None:
    build(workspace, catalogue(workspace))
    monkeypatch.setenv("SITE_URL", "https://example.org/cards/")  # what site/mkdocs.yml reads
    moved = build(workspace, catalogue(workspace))
    built, total = map(int, moved.redone["site"].split(" pages")[0].split(" of "))
    assert built == total  # every page names its address (its canonical link)
    sitemap = (workspace.output_dir / "site" / "sitemap.xml").read_text(encoding="utf-8")
    assert "<loc>https://example.org/cards/</loc>" in sitemap and CONFIGURED not in sitemap


def test_a_sitemap_built_for_a_published_address_names_the_served_one() -> None:
    from carddb.site.served_sitemap import served_sitemap

    built = (b'<?xml version="1.0" encoding="UTF-8"?>\n<urlset><url><loc>https://example.org/games/</loc></url>'
             b"<url><loc>https://example.org/games/shmod/cards/?a=1&amp;b=2</loc></url></urlset>")
    assert served_sitemap(built, "http://127.0.0.1:8123/") == (
        b'<?xml version="1.0" encoding="UTF-8"?>\n<urlset><url><loc>http://127.0.0.1:8123/</loc></url>'
        b"<url><loc>http://127.0.0.1:8123/shmod/cards/?a=1&amp;b=2</loc></url></urlset>")
    odd = b"<urlset><url><loc>https://a.example/x/</loc></url><url><loc>https://b.example/y/</loc></url></urlset>"
    assert served_sitemap(odd, "http://127.0.0.1:8123/") == odd  # no address every other extends: as built
    assert served_sitemap(b"<urlset></urlset>", "http://127.0.0.1:8123/") == b"<urlset></urlset>"


@pytest.mark.browser
def test_play_online_names_the_served_port_and_fits_a_phone(workspace: Workspace, chromium, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A site built for this computer's own address (8000) and served on another port: its Play online page and
    the client files it offers name the port the server is on (a client pointed at 8000 finds nothing), the
    address boxes fit a 360 px screen, and a game's folder is the site's 404 page, not a listing."""
    site = workspace.output_dir / "site"
    build(workspace, catalogue(workspace))  # for site_url's own address, whatever an earlier test built it for
    server = make_server(site, "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = server_url(server)
        page = chromium.new_page()
        for width in (360, 1280):
            page.set_viewport_size({"width": width, "height": 800})
            page.goto(url + "games/mini/online/")
            boxes = page.evaluate("""() => [...document.querySelectorAll('input.carddb-copy-url')].map((box) =>
                ({value: box.value, right: box.getBoundingClientRect().right}))""")
            assert boxes and all(box["value"].startswith(url) and box["right"] <= width for box in boxes), boxes
            page.screenshot(path=str(tmp_path / f"online-{width}.png"))
        with urllib.request.urlopen(boxes[0]["value"], timeout=10) as answer:  # LackeyCCG's updatelist
            listed = answer.read().decode("utf-8")
        assert CONFIGURED not in listed and url in listed
        answer = page.goto(url + "games/mini/")
        assert answer.status == 404 and "Directory listing" not in page.content()
        page.close()
    finally:
        server.shutdown()
        server.server_close()


def test_the_local_address_is_said_once_by_build_and_never_by_serve(workspace: Workspace) -> None:
    """A new workspace builds for http://127.0.0.1:8000/: ``carddb build`` says once that other players will not
    see the client files' images; ``site serve`` (on any port) serves this computer on purpose and says nothing."""
    db = str(workspace.output_dir / "catalogue.db")
    built = CliRunner().invoke(app, ["--root", str(workspace.root), "--db", db, "build"], catch_exceptions=False)
    assert built.exit_code == 0, built.output
    assert (built.stdout + built.stderr).count("is this computer's own address") == 1, built.output
    served = serve_build(workspace, catalogue(workspace))
    assert not [w for w in served.warnings if "own address" in w] and not [
        line for line in served.lines if "own address" in line]
