"""Standard output that outlives its reader (``carddb build | head``)."""

from __future__ import annotations

import io
import os
import sys


class ClosedPipeSink(io.RawIOBase):
    """Standard output that outlives its reader: once the reader closes the pipe (``carddb build | head``),
    what is left to print is dropped and the command finishes its work, rather than stopping halfway with
    ``Error: Broken pipe``."""

    def __init__(self, fd: int) -> None:
        super().__init__()
        self.fd = fd
        self.reader_gone = False

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.fd

    def write(self, data) -> int:  # type: ignore[no-untyped-def, override]
        if not self.reader_gone:
            try:
                return os.write(self.fd, data)
            except BrokenPipeError:
                self.reader_gone = True
        return len(data)


def guard_stdout() -> None:
    stdout = sys.stdout
    if stdout is None or stdout.isatty():
        return
    try:
        fd = stdout.fileno()
    except (OSError, ValueError):  # not a real file (a test runner's capture): nothing to guard
        return
    stdout.flush()
    sys.stdout = io.TextIOWrapper(io.BufferedWriter(ClosedPipeSink(fd)), encoding=stdout.encoding,
                                  errors=stdout.errors, line_buffering=stdout.line_buffering)
