"""Writing files so that a crash never leaves a half-written one behind."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


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
