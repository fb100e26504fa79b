"""The one way carddb writes a file or a folder: whole or not at all, and never leaving the target missing.

A file is written to a hidden ``.part`` file beside it and renamed over the target (one atomic rename).
A folder is built in a hidden staging folder beside it; on Linux the two are then exchanged in one step
(``renameat2`` with ``RENAME_EXCHANGE``) and the old copy, now in the staging folder, is deleted. Where the
exchange is not available the old folder is first renamed aside, the new one renamed in, and the old one
deleted; a run killed between those two renames leaves the old folder aside under a recognisable name, and
the next run puts it back. So whatever moment a run is killed at, the target is the old or the new
complete version.

Within a build (``keeping_old_copies``), a folder replaced with ``refill`` keeps its old copy in the build's state
folder instead of deleting it, and the next replacement of that folder starts from it: a writer that brings it up to
date (``carddb.files.listing.prune_to``, every file replaced, never written through) touches only what changed,
where filling an empty folder linked 5,000 images and deleting the old copy unlinked 5,000 more in every build.

Everything in progress carries carddb's name and the process id (``.deck.dek.carddb-4711-1a2b3c4d.part``,
``.site.carddb-new-4711-1a2b3c4d``); the next write into the same folder removes those of processes that
are no longer running. Files and folders get the permissions of the user's umask (0644 and 0755 under
umask 022), whatever the ones they replace had (earlier carddb versions wrote private 0600/0700 ones); a file
made read-only is refused, never replaced (``refusal``).
"""

from __future__ import annotations

import contextlib
import contextvars
import errno
import hashlib
import os
import re
import secrets
import shutil
import signal
import stat
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from carddb.errors import OutputError

#: Set to ``step`` or ``step:N`` (the Nth time that step is reached) to have the process kill itself with
#: SIGKILL there: the hostile tests use it to interrupt writes at their most delicate moments.
KILL_AT_ENV = "CARDDB_TEST_KILL_AT"
#: Set to 1 to use the portable two-rename replacement even where the one-step exchange works.
NO_EXCHANGE_ENV = "CARDDB_TEST_NO_EXCHANGE"

_LEFTOVER = re.compile(r"^\.(?P<name>.+)\.carddb-(?:(?P<kind>new|old)-)?(?P<pid>\d+)-(?P<token>[0-9a-f]{8})"
                       r"(?P<part>\.part)?$")
_SHORTENED = re.compile(r"\[[0-9a-f]{8}\]$")
_RENAME_EXCHANGE = 2
_AT_FDCWD = -100
_WINDOWS_STALE_SECONDS = 3600
_cleaned: set[str] = set()  # folders already cleaned by this process
_mine: set[str] = set()  # leftovers-to-be this process is still writing
_reached: dict[str, int] = {}
#: The removals of each open ``removing_in_background`` block, in the order the blocks opened (any thread's).
_background: list[list[threading.Thread]] = []
_background_lock = threading.Lock()
_own_blocks = threading.local()  # ``blocks``: the blocks the calling thread opened, innermost last
#: Where the old copies of refilled folders are kept (``keeping_old_copies``), in this thread's build.
_keeping: contextvars.ContextVar[Path | None] = contextvars.ContextVar("carddb_old_copies", default=None)


# --- files ----------------------------------------------------------------------------------------------

def write_file(path: str | Path, data: bytes | str, *, encoding: str = "utf-8", inside: Path | None = None) -> Path:
    """Write ``data`` to ``path`` whole or not at all (text is encoded as given, line endings untouched);
    ``inside``: only when the file really written (through any link) is inside that folder."""
    payload = data.encode(encoding) if isinstance(data, str) else data
    with staged_file(path, inside=inside) as part:
        fd = os.open(part, os.O_WRONLY | os.O_TRUNC | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0))
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
    return Path(path)


@contextlib.contextmanager
def staged_file(path: str | Path, *, inside: Path | None = None) -> Iterator[Path]:
    """Yield a new, empty hidden file beside ``path`` to write; when the block ends without an error it is
    renamed over ``path`` (made first if missing); on any error it is removed and ``path`` is untouched."""
    with staged_files([Path(path)], inside=inside) as parts:
        yield parts[0]


@contextlib.contextmanager
def staged_files(paths: list[Path], *, inside: Path | None = None) -> Iterator[list[Path]]:
    """Like ``staged_file`` for several files that go in together: each gets its hidden file, and only when
    the block succeeds are they renamed into place (a failed check after writing leaves every target as it was).
    A target made read-only, or (with ``inside``) one a link leads out of that folder, is refused before
    anything is written (``refusal``)."""
    for path in paths:
        refused = refusal(path, inside)
        if refused:
            raise OutputError(f"{refused}; nothing was written")
    targets = [_real_target(Path(p)) for p in paths]
    parts: list[Path] = []
    current = targets[0] if targets else Path()
    try:
        for current in targets:
            _prepare_parent(current)
            parts.append(_new_part(current))
        yield parts
        for part, current in zip(parts, targets, strict=True):
            _checkpoint("file-written")
            os.replace(part, current)
            _mine.discard(str(part))
    except OSError as exc:
        raise OutputError(_failure(exc, current, parts)) from None
    finally:
        for part in parts:
            if str(part) in _mine:
                _mine.discard(str(part))
                with contextlib.suppress(OSError):
                    part.unlink()


def refusal(path: str | Path, inside: Path | None = None) -> str | None:
    """Why carddb will not replace the file ``path``, or None: a file made read-only (no write permission for
    anyone: its owner's wish, even when the folder would let a rename replace it, and even for root), or, with
    ``inside``, a file that is, through a link, outside that folder (a link in a workspace must not make
    a write there reach a file elsewhere)."""
    path = Path(path)
    target = Path(os.path.realpath(path))
    if inside is not None and not target.is_relative_to(os.path.realpath(inside)):
        return f"{path} is a link to {target}, outside {inside}: carddb writes only the files inside it"
    try:
        mode = os.stat(target).st_mode
    except OSError:
        return None  # a new file, or one the write itself will fail on with its own message
    if stat.S_ISREG(mode) and not mode & 0o222:
        return f"{path} is read-only: carddb does not replace a file made read-only (make it writable first)"
    return None


def _failure(exc: OSError, target: Path, hidden: list[Path]) -> str:
    """The one line for a write the system refused, naming what the user knows: the target, or the folder in
    its way (never a hidden file of ours)."""
    named = exc.filename2 or exc.filename
    if named is None or Path(named) in hidden or ".carddb-" in Path(named).name:
        return f"cannot write {target}: {exc.strerror or exc}"
    return f"{named}: {exc.strerror or exc}"


def new_file_mode() -> int:
    """The permissions a new file gets under the user's umask (0644 under umask 022)."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def _new_part(target: Path) -> Path:
    part = target.with_name(f".{_short(target.name)}.carddb-{os.getpid()}-{secrets.token_hex(4)}.part")
    _mine.add(str(part))
    # O_EXCL: never an existing file; mode 0666 less the umask, as any program's new file (mkstemp's are 0600).
    fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
                 | getattr(os, "O_CLOEXEC", 0), 0o666)
    os.close(fd)
    return part


# --- folders --------------------------------------------------------------------------------------------

@contextlib.contextmanager
def replacing_folder(path: str | Path, *, refill: bool = False) -> Iterator[Path]:
    """Yield an empty hidden folder beside ``path`` to build in; when the block ends without an error it
    replaces ``path`` (never leaving it missing); on any error it is removed and ``path`` is untouched.

    With ``refill``, inside ``keeping_old_copies``, the folder yielded may instead hold the copy of ``path`` that
    its last replacement took out: the caller makes it exactly the new folder, and replaces (never writes through)
    every file there, for a file there may be a hard link to the same file in ``path``.

    Whether ``path`` may be replaced at all (is it an earlier export, not a user's folder?) is for the caller
    to check first.
    """
    target = _real_target(Path(path))
    keep = _old_copy_place(target) if refill else None
    try:
        _prepare_parent(target)
        stage = target.with_name(f".{_short(target.name)}.carddb-new-{os.getpid()}-{secrets.token_hex(4)}")
        _mine.add(str(stage))
        if keep is None or not _take_old_copy(keep, stage):
            os.mkdir(stage, 0o777)  # 0777 less the umask (mkdtemp's folders are 0700)
    except OSError as exc:
        raise OutputError(f"cannot create the folder {target}: {exc.strerror or exc}") from None
    try:
        yield stage
        _checkpoint("folder-staged")
        swap_in(stage, target, keep_old_as=keep)
    except BaseException:
        _mine.discard(str(stage))
        shutil.rmtree(stage, ignore_errors=True)
        raise


@contextlib.contextmanager
def keeping_old_copies(folder: Path, *, prune: bool) -> Iterator[None]:
    """Within the block (a build's steps, in this thread), the old copy of a folder replaced with ``refill`` is
    kept in ``folder`` for the next replacement of the same folder, not deleted. With ``prune`` (a build of every
    game), the copies of folders that are gone (a removed game's exports) go when the block ends; a copy whose
    folder this build did not replace (another game's, up to date) stays for that folder's next change."""
    folder = Path(folder)
    # carddb's own folder only: one that is a link (or whose parent is) may lead to a user's files, which the pruning
    # below would remove; the build then deletes its old copies as before
    usable = not any(os.path.islink(path) for path in (folder, folder.parent)) and \
        (folder.is_dir() or not os.path.lexists(folder))
    token = _keeping.set(folder if usable else None)
    try:
        yield
    finally:
        _keeping.reset(token)
        if prune and usable:
            with contextlib.suppress(OSError), os.scandir(folder) as entries:
                for entry in list(entries):
                    if not _OLD_COPY_NAME.match(entry.name):  # nothing carddb did not name is touched
                        continue
                    if entry.name.endswith(_TARGET_SUFFIX):
                        if not os.path.isdir(entry.path.removesuffix(_TARGET_SUFFIX)):  # its copy never came
                            Path(entry.path).unlink(missing_ok=True)
                        continue
                    target = Path(entry.path + _TARGET_SUFFIX)
                    try:
                        kept_for = os.fsdecode(target.read_bytes())
                    except OSError:
                        kept_for = ""
                    if not kept_for or not os.path.isdir(kept_for):
                        target.unlink(missing_ok=True)
                        _remove(Path(entry.path))


#: Beside each kept old copy: the folder it is a copy of (a copy of a folder that is gone is pruned).
_TARGET_SUFFIX = ".target"
#: How carddb names a kept old copy (``_old_copy_place``) and the file beside it.
_OLD_COPY_NAME = re.compile(r"^[0-9a-f]{24}(\.target)?$")


def _old_copy_place(target: Path) -> Path | None:
    """Where the old copy of ``target`` is kept in the current ``keeping_old_copies`` block, or None outside one."""
    folder = _keeping.get()
    if folder is None:
        return None
    return folder / hashlib.sha256(os.fsencode(target)).hexdigest()[:24]


def _take_old_copy(kept: Path, stage: Path) -> bool:
    """The kept old copy renamed to ``stage`` (a leftover of this process from then on, if the run is killed)."""
    try:
        if not stat.S_ISDIR(os.lstat(kept).st_mode):
            return False
        os.rename(kept, stage)
        return True
    except OSError:  # none kept, or on another file system than the target: an empty folder then
        return False


def _keep_old_copy(old: Path, kept: Path, target: Path) -> bool:
    try:
        kept.parent.mkdir(parents=True, exist_ok=True)
        os.rename(old, kept)
    except OSError:  # another file system, or a copy there already: deleted as before
        return False
    _mine.discard(str(old))
    with contextlib.suppress(OSError):
        write_file(Path(str(kept) + _TARGET_SUFFIX), os.fsencode(target))
    return True


def swap_in(stage: Path, target: Path, *, keep_old_as: Path | None = None) -> None:
    """Put the complete folder ``stage`` at ``target`` (its sibling), replacing what is there; the old copy is
    moved to ``keep_old_as`` when given (and possible), else deleted (in the background inside
    ``removing_in_background``)."""
    try:
        if not os.path.lexists(target):
            os.rename(stage, target)
            _mine.discard(str(stage))
            return
        if _exchange(stage, target):
            _checkpoint("folder-exchanged")
            if keep_old_as is None or not _keep_old_copy(stage, keep_old_as, target):
                _remove(stage)  # the old copy
            return
        old = target.with_name(f".{_short(target.name)}.carddb-old-{os.getpid()}-{secrets.token_hex(4)}")
        _mine.add(str(old))
        os.rename(target, old)
        try:
            _checkpoint("folder-old-moved")
            os.rename(stage, target)
        except BaseException:
            if not os.path.lexists(target):
                os.rename(old, target)
            _mine.discard(str(old))
            raise
        _mine.discard(str(stage))
        if keep_old_as is None or not _keep_old_copy(old, keep_old_as, target):
            _remove(old)
    except OSError as exc:
        raise OutputError(f"cannot put the new {target.name} in place at {target}: {exc.strerror or exc}; "
                          "the old one was kept") from None


@contextlib.contextmanager
def removing_in_background() -> Iterator[None]:
    """Within the block, the old copy of a folder replaced by ``replacing_folder`` is deleted in a thread of its
    own while the work goes on (a site of 5,000 cards is 30,000 files: a second and a half of deleting in every
    build); the block ends when every one is gone. A run killed before leaves it for the next run to remove, as
    any leftover (``clean_leftovers``). Blocks opened by several threads (builds beside each other in one process)
    each wait for their own removals, and a thread that opened none adds its removals to the block opened last."""
    mine: list[threading.Thread] = []
    own = _own_blocks.__dict__.setdefault("blocks", [])
    with _background_lock:
        _background.append(mine)
    own.append(mine)
    try:
        yield
    finally:
        own.pop()
        with _background_lock:  # this block's list (by identity: two empty lists are equal), whatever other
            # threads' blocks opened or closed meanwhile
            del _background[next(at for at, block in enumerate(_background) if block is mine)]
        for thread in mine:
            thread.join()


def _remove(folder: Path) -> None:
    """Delete ``folder`` (an old copy, named as a leftover of this process and kept in ``_mine`` until gone)."""
    _mine.add(str(folder))

    def remove() -> None:
        shutil.rmtree(folder, ignore_errors=True)
        _mine.discard(str(folder))

    own = getattr(_own_blocks, "blocks", None)
    with _background_lock:
        # the calling thread's innermost block; a thread that opened none (a step run beside a build) uses the
        # block opened last, the build's
        block = own[-1] if own else _background[-1] if _background else None
        if block is not None:
            thread = threading.Thread(target=remove, name="carddb-remove-old-copy", daemon=True)
            thread.start()
            block.append(thread)
    if block is None:
        remove()


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one atomic step (Linux ``renameat2``); False where that is not available."""
    if not sys.platform.startswith("linux") or os.environ.get(NO_EXCHANGE_ENV):
        return False
    rename = _renameat2()
    if rename is None:
        return False
    if rename(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    import ctypes

    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV):
        return False  # a file system or kernel without the exchange: the portable way then
    raise OSError(code, os.strerror(code), str(b))


_renameat2_function: list[object] = []


def _renameat2():  # type: ignore[no-untyped-def]
    if not _renameat2_function:
        try:
            import ctypes  # here: not every Python has it (the browser's prints through this module too)

            function = ctypes.CDLL(None, use_errno=True).renameat2
            function.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
            function.restype = ctypes.c_int
        except (AttributeError, ImportError, OSError):
            function = None
        _renameat2_function.append(function)
    return _renameat2_function[0]


# --- leftovers of interrupted runs ----------------------------------------------------------------------

def is_leftover(name: str) -> bool:
    """Whether ``name`` is one a carddb run gives what it writes beside a target (a staging folder, an old copy
    being deleted, a ``.part`` file): never a user's file, nor an output."""
    return _LEFTOVER.match(name) is not None


def clean_leftovers(folder: str | Path) -> list[Path]:
    """Remove what interrupted carddb runs left in ``folder`` (staging folders, ``.part`` files), putting
    back an old folder a run was killed in the middle of replacing. Returns what was removed or restored."""
    folder = Path(folder)
    done: list[Path] = []
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return done
    # Old copies first: a target killed between the two renames of the portable way gets its old copy back,
    # and only then are the staging folders (one of them that run's complete new copy) removed.
    leftovers = [(entry, match) for entry in entries if (match := _LEFTOVER.match(entry.name))]
    leftovers.sort(key=lambda item: item[1]["kind"] != "old")
    for entry, match in leftovers:
        if entry.path in _mine or not _dead(int(match["pid"]), entry):
            continue
        path = Path(entry.path)
        with contextlib.suppress(OSError):
            if match["kind"] == "old":
                if _SHORTENED.search(match["name"]):
                    continue  # which folder it was is not certain: leave it for the user
                target = folder / match["name"]
                if not os.path.lexists(target):
                    os.rename(path, target)
                    done.append(target)
                    continue
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(path)
            else:
                path.unlink()
            done.append(path)
    return done


def _dead(pid: int, entry: os.DirEntry[str]) -> bool:
    if os.name == "nt":  # no safe liveness test there (os.kill would end the process): go by age
        try:
            return time.time() - entry.stat(follow_symlinks=False).st_mtime > _WINDOWS_STALE_SECONDS
        except OSError:
            return False
    if pid == os.getpid():
        return True  # an earlier process had our number; what this one is writing is in _mine
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:
        return False  # alive, another user's
    return False


def _prepare_parent(target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    key = str(target.parent)
    if key not in _cleaned:
        _cleaned.add(key)
        clean_leftovers(target.parent)


def _real_target(path: Path) -> Path:
    """The path written: through a symlink to what it names (a link to a served folder stays a link)."""
    path = Path(os.path.abspath(path))
    if path.is_symlink():
        return Path(os.path.realpath(path))
    return path


def _short(name: str) -> str:
    """A target's name as it appears in its leftovers' names: long names are cut and marked with a hash, so the
    leftover's name stays within the 255 bytes file systems allow."""
    if len(os.fsencode(name)) <= 120:
        return name
    digest = hashlib.sha256(os.fsencode(name)).hexdigest()[:8]
    return f"{os.fsencode(name)[:100].decode('utf-8', 'ignore')}[{digest}]"


def _checkpoint(step: str) -> None:
    wanted = os.environ.get(KILL_AT_ENV)
    if not wanted:
        return
    name, _, count = wanted.partition(":")
    if name != step:
        return
    _reached[step] = _reached.get(step, 0) + 1
    if _reached[step] >= int(count or 1):
        os.kill(os.getpid(), getattr(signal, "SIGKILL", signal.SIGTERM))
