"""``carddb site serve`` facing a hostile browser: paths with NUL bytes, control characters, backslashes,
``..`` and invalid percent-encoding get a plain 400 or 404, a client that goes away mid-download is not an
error, and nothing is ever printed on the console."""

from __future__ import annotations

import http.client
import random
import socket
import struct
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from carddb.site.serve import make_server
from tests.hostile.conftest import Ledger

HOSTILE_PATHS = {
    "/index.html%00.png": 400, "/%00": 400, "/index.html%0d%0aSet-Cookie:%20x=1": 400, "/a%5cb": 400,
    "/..%5c..%5cetc%5cpasswd": 400, "/%ff%fe%fd": 400, "/" + "a" * 3000: 400, "/assets/%01": 400,
    "/../../../../etc/passwd": 404, "/%2e%2e/%2e%2e/etc/passwd": 404, "/games/../../../etc/passwd": 404,
    "/nope.html": 404, "//etc/passwd": 404, "/index.html": 200, "/?q=%00": 200, "/#%00": 200,
    # a folder without a page: the site's 404 page, never a listing of what is in it
    "/games/mini/": 404, "/games/": 404, "/clients/": 404, "/assets/": 404,
}


class Answered:
    """Counts the requests a server took and those it is done with (answered, or its error handled): once they
    match, whatever it would print about them is printed."""

    def __init__(self, httpd) -> None:  # type: ignore[no-untyped-def]
        self.taken = self.done = 0
        self.changed = threading.Condition()
        take, answer = httpd.process_request, httpd.process_request_thread

        def process_request(request, client_address) -> None:  # type: ignore[no-untyped-def]
            with self.changed:
                self.taken += 1
            take(request, client_address)

        def process_request_thread(request, client_address) -> None:  # type: ignore[no-untyped-def]
            try:
                answer(request, client_address)
            finally:
                with self.changed:
                    self.done += 1
                    self.changed.notify_all()

        httpd.process_request, httpd.process_request_thread = process_request, process_request_thread

    def wait(self) -> None:
        with self.changed:
            assert self.changed.wait_for(lambda: self.done == self.taken, timeout=60), (self.taken, self.done)


@pytest.fixture(scope="module")
def server(hostile_ws: Path) -> Iterator[tuple[tuple[str, int], Answered]]:
    site = hostile_ws / "output" / "site"
    assert (site / "index.html").is_file()
    httpd = make_server(site, "127.0.0.1", 0)
    answered = Answered(httpd)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd.server_address[:2], answered
    httpd.shutdown()
    httpd.server_close()


def _get(address: tuple[str, int], path: str, method: str = "GET") -> int:
    connection = http.client.HTTPConnection(*address, timeout=10)
    try:
        connection.putrequest(method, path, skip_accept_encoding=True)
        connection.endheaders()
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


def test_hostile_paths_get_a_plain_answer(server: tuple[tuple[str, int], Answered],
                                          capfd: pytest.CaptureFixture[str], ledger: Ledger) -> None:
    server, answered = server
    for path, status in HOSTILE_PATHS.items():
        for method in ("GET", "HEAD"):
            ledger.tried("site path")
            assert _get(server, path, method) == status, (method, path[:60])
    rng = random.Random(5)
    for _ in range(200):
        raw = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 30)))
        path = "/" + "".join(f"%{b:02x}" if rng.random() < 0.7 else chr(b % 94 + 33) for b in raw).replace("#", "")
        ledger.tried("site path")
        assert _get(server, path) in (200, 301, 400, 404), path
    answered.wait()
    captured = capfd.readouterr()
    assert captured.err == "" and captured.out == ""


def test_a_folder_is_never_listed(server: tuple[tuple[str, int], Answered], ledger: Ledger) -> None:
    server, _answered = server
    for path in ("/games/mini/", "/games/", "/clients/mini/", "/search/"):
        ledger.tried("site folder")
        connection = http.client.HTTPConnection(*server, timeout=10)
        try:
            connection.request("GET", path)
            answer = connection.getresponse()
            body = answer.read()
        finally:
            connection.close()
        assert answer.status == 404 and b"Directory listing" not in body and b"<title>" in body, path


def test_a_client_that_goes_away_is_not_an_error(server: tuple[tuple[str, int], Answered], hostile_ws: Path,
                                                 capfd: pytest.CaptureFixture[str], ledger: Ledger) -> None:
    server, answered = server
    site = hostile_ws / "output" / "site"
    big = max((p for p in site.rglob("*") if p.is_file()), key=lambda p: p.stat().st_size)
    path = "/" + big.relative_to(site).as_posix()
    for _ in range(5):
        ledger.tried("dropped download")
        sock = socket.create_connection(server, timeout=10)
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        sock.recv(1000)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # reset, as a closed tab
        sock.close()
    for _ in range(3):  # half a request, then gone
        sock = socket.create_connection(server, timeout=10)
        sock.sendall(b"GET /index.ht")
        sock.close()
    assert _get(server, "/index.html") == 200  # still serving (so it has taken every connection before)
    answered.wait()
    captured = capfd.readouterr()
    assert "Traceback" not in captured.err and "Error" not in captured.err and captured.err == ""
