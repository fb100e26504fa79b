"""The card studio's addresses on a served site, sent what a hostile page or a DNS-rebinding name would send: no
token cookie, no studio header, another origin, a foreign ``Host``, a body too large or not JSON, a file outside
the workspace, an unknown field, a file changed on disk meanwhile. Each is refused with its status and one line,
and no card file changes; the studio's own page gets its answers (the face as a PNG of the card's size, problems
by field)."""

from __future__ import annotations

import base64
import http.client
import io
import json
import shutil
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from PIL import Image

from carddb.catalogue.definitions import workspace_definition
from carddb.catalogue.studio_edits import Studio
from carddb.site.live import LiveReload
from carddb.site.policy import HEADER_POLICY
from carddb.site.serve import make_server
from carddb.site.studio_http import MAX_BODY, StudioServer
from carddb.workspace import Workspace

REPO = Path(__file__).resolve().parents[2]
CARDS = "rules/shmod/cards/base.yaml"


@dataclass
class Served:
    root: Path
    port: int
    token: str
    headers: dict[str, str] = field(default_factory=dict)  # of the last answer
    written: int = 0  # how often the studio told that an action had written all it writes

    @property
    def host(self) -> str:
        return f"127.0.0.1:{self.port}"

    @property
    def sent_by_the_studio(self) -> dict[str, str]:
        """What the studio's script sends: its header, and the cookie the browser keeps from a page."""
        return {"Content-Type": "application/json", "Origin": f"http://{self.host}", "X-Carddb-Studio": "1",
                "Cookie": f"carddb-studio-{self.port}={self.token}"}

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None
                ) -> tuple[int, bytes]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
            sent = {"Host": self.host, **(headers or {})}
            if body is not None and "Content-Length" not in sent:
                sent["Content-Length"] = str(len(body))
            for name, value in sent.items():
                if value is not None:
                    connection.putheader(name, value)
            connection.endheaders()
            if body is not None:
                connection.send(body)
            answer = connection.getresponse()
            self.headers = dict(answer.getheaders())
            return answer.status, answer.read()
        finally:
            connection.close()

    def studio(self, action: str, request: dict, **headers: str) -> tuple[int, dict]:
        sent = self.sent_by_the_studio
        sent.update({name.replace("_", "-"): value for name, value in headers.items()})
        status, body = self.request("POST", f"/__carddb__/studio/{action}", json.dumps(request).encode(), sent)
        return status, json.loads(body)

    def card_file(self) -> str:
        return (self.root / CARDS).read_text(encoding="utf-8")


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    root = tmp_path / "workspace"
    shutil.copytree(REPO / "rules" / "shmod", root / "rules" / "shmod")
    shutil.copytree(REPO / "templates" / "shmod", root / "templates" / "shmod")
    shutil.copy(REPO / "templates" / "icons.toml", root / "templates" / "icons.toml")
    site = root / "output" / "site"
    (site / "games" / "shmod" / "cards" / "replenish").mkdir(parents=True)
    (site / "games/shmod/cards/replenish/index.html").write_text(
        '<html><body><div data-card-page data-game="shmod" data-key="Replenish"></div></body></html>')
    (site / "404.html").write_text("<html><body>Not here</body></html>")
    editor = StudioServer(Studio(Workspace(root)))
    server = make_server(site, "127.0.0.1", 0, live=LiveReload(site, root / "output"), studio=editor)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    served = Served(root, server.server_address[1], editor.token)

    def written() -> None:
        served.written += 1

    editor.written = written
    yield served
    server.shutdown()
    server.server_close()


def opened(served: Served, key: str = "Replenish") -> dict:
    status, answer = served.studio("open", {"game": "shmod", "key": key})
    assert status == 200, answer
    return answer


def test_the_token_is_a_cookie_no_script_reads_given_only_to_the_servers_own_host(served: Served) -> None:
    status, page = served.request("GET", "/games/shmod/cards/replenish/")
    assert status == 200 and served.token.encode() not in page and b"/__carddb__/studio/studio.js" in page
    assert served.headers["Set-Cookie"] == (f"carddb-studio-{served.port}={served.token}; Path=/__carddb__/studio/; "
                                            "HttpOnly; SameSite=Strict")
    assert served.headers["Content-Security-Policy"] == HEADER_POLICY
    assert b"/__carddb__/live.js" in page
    for host in (f"attacker.example:{served.port}", "127.0.0.1:1", None):
        status, page = served.request("GET", "/games/shmod/cards/replenish/", headers={"Host": host})
        assert served.token.encode() not in page and b"studio.js" not in page and "Set-Cookie" not in served.headers
    status, script = served.request("GET", "/__carddb__/studio/studio.js")
    assert status == 200 and b'"X-Carddb-Studio": "1"' in script and "Set-Cookie" not in served.headers


def test_a_missing_page_reloads_itself_once_built(served: Served) -> None:
    status, page = served.request("GET", "/games/shmod/cards/not-built-yet/")
    assert status == 404 and b"Not here" in page and b"/__carddb__/live.js" in page


def test_preview_draws_the_face_and_names_problems_by_field(served: Served) -> None:
    values = {**opened(served)["values"], "text": "Draw 2 cards."}
    status, answer = served.studio("preview", {"game": "shmod", "key": "Replenish", "values": values})
    assert status == 200 and answer["problems"] == {}
    png = base64.b64decode(answer["face"].removeprefix("data:image/png;base64,"))
    with Image.open(io.BytesIO(png)) as image:
        width, height = workspace_definition(Workspace(served.root), "shmod")[0].card_size_mm
        assert image.format == "PNG" and image.size == (round(width / 25.4 * 200), round(height / 25.4 * 200))
    status, answer = served.studio("preview", {"game": "shmod", "key": "Replenish",
                                               "values": {**values, "level": "high"}})
    assert status == 200 and answer["face"] is None
    assert answer["problems"] == {"level": "expected a whole number or X, got 'high'"}


def test_a_save_from_the_page_writes_the_card_file(served: Served) -> None:
    form = opened(served)
    status, answer = served.studio("save", {"game": "shmod", "key": "Replenish", "digest": form["digest"],
                                            "values": {**form["values"], "level": "7"}})
    assert status == 200, answer
    assert answer["page"] == "games/shmod/cards/replenish/" and "    level: 7\n" in served.card_file()


def test_the_watcher_is_told_once_a_write_is_whole_never_after_a_read_or_a_refusal(served: Served) -> None:
    """``site serve`` builds a studio write without waiting for the files to be quiet (``Watcher.hurry``): the studio
    says so once its action has written the card file and the catalogue, never after an action that wrote nothing."""
    form = opened(served)
    values = {**form["values"], "level": "7"}
    assert served.studio("preview", {"game": "shmod", "key": "Replenish", "values": values})[0] == 200
    status, _answer = served.studio("save", {"game": "shmod", "key": "Replenish", "digest": "stale", "values": values})
    assert status == 409 and served.written == 0
    status, _answer = served.studio("save", {"game": "shmod", "key": "Replenish", "digest": form["digest"],
                                             "values": values})
    assert status == 200 and served.written == 1


@pytest.mark.parametrize(("headers", "said"), [
    ({"Cookie": None}, "token is missing"),
    ({"Cookie": "carddb-studio-1=guessed"}, "token is missing"),
    ({"X-Carddb-Studio": None}, "only its own script"),  # a form of another page: it cannot set a header
    ({"Origin": "http://attacker.example"}, "only its own pages"),
    ({"Origin": None}, "only its own pages"),
    ({"Origin": "null"}, "only its own pages"),
])
def test_a_write_without_the_token_or_from_another_origin_is_refused(served: Served, headers: dict,
                                                                    said: str) -> None:
    form = opened(served)
    before = served.card_file()
    status, answer = served.studio("save", {"game": "shmod", "key": "Replenish", "digest": form["digest"],
                                            "values": {**form["values"], "level": "9"}}, **headers)
    assert status == 403 and said in answer["error"]
    assert served.card_file() == before


def test_a_foreign_host_is_refused_even_with_the_token(served: Served) -> None:
    """DNS rebinding: a page of attacker.example whose name now points at 127.0.0.1 sends its own Host."""
    form = opened(served)
    before = served.card_file()
    foreign = f"attacker.example:{served.port}"
    status, answer = served.studio("save", {"game": "shmod", "key": "Replenish", "digest": form["digest"],
                                            "values": {**form["values"], "level": "9"}},
                                   Host=foreign, Origin=f"http://{foreign}")
    assert status == 403 and "own address" in answer["error"]
    assert served.card_file() == before


def test_oversized_and_non_json_bodies_are_refused(served: Served) -> None:
    sent = served.sent_by_the_studio
    status, body = served.request("POST", "/__carddb__/studio/save", b"{" + b" " * MAX_BODY + b"}", sent)
    assert status == 413 and b"larger than" in body
    status, body = served.request("POST", "/__carddb__/studio/save", b"game=shmod",
                                  {**sent, "Content-Type": "application/x-www-form-urlencoded"})
    assert status == 415
    for bad in (b"{not json", b"\xff\xfe", b'{"values": ' + b"[" * 30000 + b"]" * 30000 + b"}"):
        status, body = served.request("POST", "/__carddb__/studio/save", bad, sent)
        assert status == 400 and b"not JSON" in body
    status, body = served.request("POST", "/games/shmod/cards/replenish/", b"{}", sent)
    assert status == 405


def test_paths_outside_the_workspace_and_unknown_fields_are_refused(served: Served) -> None:
    form = opened(served)
    before = served.card_file()
    for file in ("../../../etc/passwd", str(served.root / CARDS), "rules/shmod/game.toml"):
        status, answer = served.studio("new", {"game": "shmod", "file": file, "values": form["values"]})
        assert status == 404 and "is not a card file of shmod" in answer["error"]
    status, answer = served.studio("open", {"game": "../../etc", "key": "Replenish"})
    assert status == 404 and "no game" in answer["error"]
    status, answer = served.studio("save", {"game": "shmod", "key": "Replenish", "digest": form["digest"],
                                            "values": {**form["values"], "power": "9"}})
    assert status == 422 and answer["error"] == "shmod has no field 'power'"
    status, answer = served.studio("rm", {})
    assert status == 404
    assert served.card_file() == before


def test_a_card_file_edited_on_disk_meanwhile_is_a_conflict(served: Served) -> None:
    form = opened(served)
    path = served.root / CARDS
    edited = served.card_file().replace("Take control of 1", "Take control of 2")
    path.write_text(edited, encoding="utf-8")
    status, answer = served.studio("save", {"game": "shmod", "key": "Replenish", "digest": form["digest"],
                                            "values": {**form["values"], "level": "9"}})
    assert status == 409 and answer["conflict"] is True and "changed on disk" in answer["error"]
    assert served.card_file() == edited


def test_without_the_studio_the_pages_are_read_only(tmp_path: Path) -> None:
    """``site serve --no-studio`` (and ``--no-watch``): no token in the pages, no address that writes."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("<html><body>Home</body></html>")
    server = make_server(site, "127.0.0.1", 0, live=LiveReload(site, tmp_path))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        plain = Served(tmp_path, server.server_address[1], "")
        status, page = plain.request("GET", "/")
        assert status == 200 and b"studio" not in page
        status, _ = plain.request("POST", "/__carddb__/studio/save", b"{}", {"Content-Type": "application/json"})
        assert status == 501
    finally:
        server.shutdown()
        server.server_close()
