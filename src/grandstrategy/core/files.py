"""Files, read and written safely: bounded reads, one writer per save, no half-written files.

Every reader of a file a person hands us (a save, a seats file, a module file, a situation, a
question set) goes through :func:`read_text` and, for JSON, :func:`parse_json`, so the rules live
in one place: only regular files (never a FIFO, a device or a directory), a size limit checked
before reading, UTF-8 text, JSON with bounded nesting and number length and no repeated keys.
Each refusal is one :class:`BadFile` (a :class:`~grandstrategy.core.errors.UserInputError`)
whose message starts with the file's name.

Writers use :func:`atomic_write`; a program that keeps a file open for writing (the terminal
game) holds a :class:`FileLock` beside it, so a second process refuses instead of interleaving
saves, and removes temporary files a killed writer left (:func:`remove_stale_temporaries`).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import stat
import sys
import tempfile
from pathlib import Path
from typing import IO, Any

from grandstrategy.core.errors import UserInputError

MAX_SAVE_BYTES = 64 * 1024 * 1024
"""The largest save read (64 MiB; a whole campaign's save is well under 1 MiB)."""

MAX_SMALL_FILE_BYTES = 1024 * 1024
"""The largest seats file, situation file or other small input read (1 MiB)."""

MAX_DATA_FILE_BYTES = 16 * 1024 * 1024
"""The largest data file read: one file of a data module, a set of questions (16 MiB)."""

MAX_JSON_DEPTH = 64
"""The deepest nesting of JSON arrays and objects accepted (saves need about ten)."""

MAX_NUMBER_CHARS = 40
"""The longest number literal accepted in JSON (a 64-bit seed has 20 digits)."""

MAX_FILE_NAME_BYTES = 200
"""The longest file name a command writes: 255 bytes, the usual limit, less room for the
temporary and lock files made beside it."""


class BadFile(UserInputError):
    """A file cannot be used: missing, not a regular file, too big, not UTF-8, not valid JSON.

    ``source`` is the name shown, ``reason`` the rest of the message and ``missing`` tells a
    file that does not exist from the other defects.
    """

    def __init__(self, source: str, reason: str, *, missing: bool = False) -> None:
        super().__init__(f"{source}: {reason}")
        self.source = source
        self.reason = reason
        self.missing = missing


def _size(count: int) -> str:
    return f"{count / 1024 / 1024:.1f} MiB" if count >= 1024 * 1024 else f"{count} bytes"


def read_bytes(path: str | os.PathLike[str], *, limit: int, source: str | None = None) -> bytes:
    """The bytes of the regular file at ``path``, refusing anything else before reading.

    The file is checked with :func:`os.stat` first (a FIFO, device, socket or directory is
    refused, as is a file above ``limit`` bytes), then opened non-blocking so that a file
    swapped for a FIFO in between cannot hang the read, and checked again on the open handle.
    Symbolic links are followed: a link to a regular file is fine, one to ``/dev/zero`` is not.

    :raises BadFile: the file is missing (``missing`` set), unreadable, not a regular file or
        too big; the path holds a NUL character.
    """
    name = source if source is not None else os.fspath(path)
    _no_nul(path)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        if os.path.lexists(path):
            raise BadFile(name, "is a symbolic link to a file that does not exist") from None
        raise BadFile(name, "cannot read: No such file or directory", missing=True) from None
    except OSError as error:
        raise BadFile(name, f"cannot read: {error.strerror or error}") from None
    _check_regular(name, info, limit)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    flags |= getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as error:
        raise BadFile(name, f"cannot read: {error.strerror or error}") from None
    with os.fdopen(fd, "rb") as handle:
        _check_regular(name, os.fstat(fd), limit)
        try:
            data = handle.read(limit + 1)
        except OSError as error:
            raise BadFile(name, f"cannot read: {error.strerror or error}") from None
    if len(data) > limit:
        raise BadFile(name, f"is larger than the limit of {_size(limit)}")
    return data


def _no_nul(path: str | os.PathLike[str]) -> None:
    """Refuse a path with a NUL character, which no file name can hold (``os`` raises ValueError)."""
    if "\0" in os.fspath(path):
        raise BadFile(repr(os.fspath(path)), "a file name cannot contain a NUL character")


def _check_regular(name: str, info: os.stat_result, limit: int) -> None:
    if stat.S_ISDIR(info.st_mode):
        raise BadFile(name, "cannot read: it is a directory, not a file")
    if not stat.S_ISREG(info.st_mode):
        raise BadFile(name, "cannot read: not a regular file (a pipe, device or socket); give a file")
    if info.st_size > limit:
        raise BadFile(name, f"is {_size(info.st_size)}, larger than the limit of {_size(limit)}")


def decode_text(data: bytes, source: str) -> str:
    """``data`` decoded as UTF-8 (a leading byte-order mark is dropped).

    :raises BadFile: the bytes are not UTF-8; the message gives the offset of the first bad byte.
    """
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise BadFile(source, f"is not UTF-8 text at byte {error.start}") from None


def read_text(path: str | os.PathLike[str], *, limit: int, source: str | None = None) -> str:
    """The UTF-8 text of the regular file at ``path`` (see :func:`read_bytes`).

    :raises BadFile: as :func:`read_bytes`, or the file is not UTF-8 text.
    """
    name = source if source is not None else os.fspath(path)
    return decode_text(read_bytes(path, limit=limit, source=name), name)


def read_stream(stream: IO[str], *, limit: int, source: str) -> str:
    """At most ``limit`` characters of text from an open stream such as stdin.

    :raises BadFile: the stream holds more than ``limit`` characters or is not text.
    """
    try:
        text = stream.read(limit + 1)
    except UnicodeDecodeError as error:
        raise BadFile(source, f"is not UTF-8 text at byte {error.start}") from None
    except OSError as error:
        raise BadFile(source, f"cannot read: {error.strerror or error}") from None
    if len(text) > limit:
        raise BadFile(source, f"is larger than the limit of {_size(limit)}")
    return text


_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


def json_depth_exceeds(text: str, limit: int) -> bool:
    """Whether JSON ``text`` nests arrays and objects more than ``limit`` deep.

    Strings are blanked out, the brackets kept, and innermost pairs removed one level per pass
    (each pass is one C-speed :meth:`str.replace`), so the check costs at most ``limit`` passes
    and never recurses.

    >>> json_depth_exceeds('[[1], {"a": [2]}]', 3), json_depth_exceeds('[[["]]]]"]]]', 2)
    (False, True)
    """
    brackets = _NOT_BRACKET.sub("", _STRING.sub('""', text))
    brackets = brackets.replace("[", "(").replace("{", "(").replace("]", ")").replace("}", ")")
    for _ in range(limit):
        shorter = brackets.replace("()", "")
        if len(shorter) == len(brackets):  # no pair left: only unbalanced brackets remain
            return "(" * (limit + 1) in brackets
        brackets = shorter
    return "()" in brackets


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise ValueError(f"duplicate key {key[:80]!r} in one object")
        result[key] = value
    return result


def _number(kind: type[int] | type[float]) -> Any:
    def parse(literal: str) -> int | float:
        if len(literal) > MAX_NUMBER_CHARS:
            raise ValueError(f"a number of {len(literal)} characters (the limit is {MAX_NUMBER_CHARS})")
        return kind(literal)

    return parse


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def parse_json(text: str, source: str, *, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """Decode JSON ``text`` strictly: bounded depth and numbers, no repeated keys, no NaN.

    :raises BadFile: empty text, invalid JSON (with line and column), nesting deeper than
        ``max_depth``, a number longer than :data:`MAX_NUMBER_CHARS` characters, a key given
        twice in one object, or NaN/Infinity.
    """
    if not text.strip():
        raise BadFile(source, "is empty, not JSON")
    if json_depth_exceeds(text, max_depth):
        raise BadFile(source, f"nests arrays or objects more than {max_depth} deep")
    try:
        return json.loads(
            text,
            object_pairs_hook=_no_duplicates,
            parse_int=_number(int),
            parse_float=_number(float),
            parse_constant=_no_constant,
        )
    except json.JSONDecodeError as error:
        raise BadFile(
            source, f"not valid JSON (line {error.lineno}, column {error.colno}: {error.msg})"
        ) from None
    except RecursionError:
        raise BadFile(source, f"nests arrays or objects more than {max_depth} deep") from None
    except ValueError as error:
        raise BadFile(source, f"is not acceptable JSON: {error}") from None


def read_json(path: str | os.PathLike[str], *, limit: int, source: str | None = None) -> Any:
    """Read the regular file at ``path`` and decode it with :func:`parse_json`.

    :raises BadFile: any defect of :func:`read_text` or :func:`parse_json`.
    """
    name = source if source is not None else os.fspath(path)
    return parse_json(read_text(path, limit=limit, source=name), name)


def check_file_name(path: str | os.PathLike[str]) -> None:
    """Refuse a file name too long to write with its temporary and lock files beside it.

    :raises UserInputError: the last part of ``path`` is longer than
        :data:`MAX_FILE_NAME_BYTES` bytes, or a folder's name longer than 255 (the message gives
        the length, not the name).
    """
    _no_nul(path)
    target = Path(path)
    size = len(os.fsencode(target.name))
    if size > MAX_FILE_NAME_BYTES:
        raise UserInputError(
            f"the file name is too long ({size} bytes; the limit is {MAX_FILE_NAME_BYTES}): "
            "choose a shorter one"
        )
    if any(len(os.fsencode(part)) > 255 for part in target.parent.parts):
        raise UserInputError("a folder name in the path is too long (over 255 bytes): choose a shorter one")


# ---- one writer per file ---------------------------------------------------------------------------


def lock_path(path: str | os.PathLike[str]) -> Path:
    """The lock file of ``path``: ``game.json`` -> ``.game.json.lock`` in the same directory."""
    target = Path(path)
    return target.with_name(f".{target.name}.lock")


class FileLock:
    """An exclusive lock that says "a process is writing this file", held until :meth:`release`.

    It is an operating-system lock (``fcntl.flock``) on a small file beside the locked one, so
    it vanishes when its process ends however it ends: a killed game never leaves a save locked.
    The lock file itself stays (removing it would race with the next process taking it) and
    holds the process id of the last holder, which the refusal names. Where ``fcntl`` is not
    available (Windows) the lock is not taken.
    """

    def __init__(self, path: str | os.PathLike[str], *, what: str = "file") -> None:
        """Take the lock on ``path``.

        :raises UserInputError: another process holds it (the message says which and what to
            do); the lock file cannot be created.
        """
        _no_nul(path)
        self.path = Path(path)
        self._fd: int | None = None
        if sys.platform == "win32":  # pragma: no cover - no flock there
            return
        import fcntl

        target = lock_path(self.path)
        try:
            fd = os.open(target, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o666)
        except OSError as error:
            raise UserInputError(f"{self.path}: cannot lock ({target}: {error.strerror or error})") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as error:
            holder = _read_pid(fd)
            os.close(fd)
            if error.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                who = f"process {holder}" if holder else "another process"
                raise UserInputError(
                    f"{self.path}: this {what} is open in {who}; only one program may play a "
                    "save at a time (quit the other one, or copy the save)"
                ) from None
            raise UserInputError(f"{self.path}: cannot lock: {error.strerror or error}") from None
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd

    def release(self) -> None:
        """Give the lock up (closing its file releases it); calling twice is harmless."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    @property
    def held(self) -> bool:
        """Whether this object holds the lock."""
        return self._fd is not None

    def __enter__(self) -> FileLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def _read_pid(fd: int) -> str:
    with contextlib.suppress(OSError, ValueError):
        text = os.pread(fd, 32, 0).decode("ascii").strip()
        if text.isascii() and text.isdigit():
            return text
    return ""


def remove_stale_temporaries(path: str | os.PathLike[str]) -> list[Path]:
    """Remove the temporary files that :func:`atomic_write` left beside ``path`` when killed.

    Call it only while holding ``path``'s :class:`FileLock`: then no other writer can be using
    them. Only regular files named exactly as :func:`atomic_write` names them are removed.
    Returns the removed paths.
    """
    target = Path(path)
    pattern = re.compile(rf"\.{re.escape(target.name)}\.[A-Za-z0-9_]{{8}}\.tmp")
    removed: list[Path] = []
    try:
        names = os.listdir(target.parent)
    except OSError:
        return removed
    for name in names:
        if pattern.fullmatch(name):
            candidate = target.parent / name
            with contextlib.suppress(OSError):
                if stat.S_ISREG(os.lstat(candidate).st_mode):
                    os.unlink(candidate)
                    removed.append(candidate)
    return removed


def atomic_write(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` atomically: the file holds either the old or the new bytes.

    The bytes go to a temporary file in the same directory, are flushed and fsynced, then moved
    over ``path`` with :func:`os.replace`; on failure the temporary file is removed.

    :raises OSError: the file cannot be written.
    """
    target = Path(path)
    directory = target.parent
    tmp_name: str | None = None
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
        os.chmod(tmp_name, 0o666 & ~_umask())  # an ordinary file, not mkstemp's private 0600
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp_name, target)
        tmp_name = None
        _fsync_directory(directory)
    finally:
        if tmp_name is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp_name)


def _umask() -> int:
    """The process's file-creation mask (read by setting it and putting it back)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _fsync_directory(directory: Path) -> None:
    """Make the rename durable where the platform allows it (POSIX); elsewhere do nothing."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
