"""`carddb site serve` answers what is not a well-formed HTTP request, read back from a raw socket: a request line
over 64 KiB gets 414 and TLS bytes on its plain port get 400, at once and without an error of its own, and the
server goes on answering."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from carddb.site.serve import make_server

# The start of a TLS 1.2 ClientHello record, as a browser sends it to an https:// address.
CLIENT_HELLO = bytes.fromhex("16030100f4010000f00303") + bytes(32) + b"\x00\x00\x02\x13\x01\x01\x00"


@pytest.fixture
def served(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> Iterator[tuple[str, int]]:
    (tmp_path / "index.html").write_text("<title>home</title>", encoding="utf-8")
    server = make_server(tmp_path, "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[:2]
    server.shutdown()
    server.server_close()
    assert capfd.readouterr().err == ""  # no "could not answer" line: every request was answered


def answer(address: tuple[str, int], data: bytes) -> bytes:
    """Everything the server sends back before it closes the connection (10 s at most)."""
    with socket.create_connection(address, timeout=10) as conn:
        conn.sendall(data)
        received = b""
        while chunk := conn.recv(65536):
            received += chunk
        return received


def status_line(response: bytes) -> str:
    return response.split(b"\r\n", 1)[0].decode("ascii")


def test_a_request_line_over_64_kib_gets_414(served: tuple[str, int]) -> None:
    response = answer(served, b"GET /" + b"a" * 70_000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    assert status_line(response).split(" ", 2)[1] == "414"
    assert b"Cache-Control: no-store" in response


def test_tls_bytes_on_the_plain_port_get_400_at_once(served: tuple[str, int]) -> None:
    with socket.create_connection(served, timeout=10) as conn:
        conn.sendall(CLIENT_HELLO)  # the connection stays open, as a browser's would: no end of line ever comes
        received = b""
        while chunk := conn.recv(65536):
            received += chunk
    assert status_line(received) == "HTTP/1.0 400 This server speaks plain HTTP"
    assert b"Open the site with http://, not https://." in received


def test_the_server_goes_on_answering(served: tuple[str, int]) -> None:
    answer(served, CLIENT_HELLO)
    answer(served, b"GET /" + b"a" * 70_000 + b" HTTP/1.1\r\n\r\n")
    response = answer(served, b"GET / HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
    assert status_line(response) == "HTTP/1.0 200 OK" and response.endswith(b"<title>home</title>")
