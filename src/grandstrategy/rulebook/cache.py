"""Where the rules assistant keeps what it derives once per install: the index, the compact tokenizer."""

from __future__ import annotations

import os
import pickle
import sys
import tempfile
from pathlib import Path


def cache_dir() -> Path:
    """$GRANDSTRATEGY_CACHE_DIR, else the platform's user cache directory plus ``grandstrategy``."""
    override = os.environ.get("GRANDSTRATEGY_CACHE_DIR")
    if override:
        return Path(override)
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA", Path.home() / "AppData" / "Local"))
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    return base / "grandstrategy"


def read_pickle(path: Path) -> object | None:
    """The object pickled at ``path`` (our own cache file, named by content hash), or None if unreadable."""
    if not path.is_file():
        return None
    try:
        with path.open("rb") as handle:
            value: object = pickle.load(handle)
        return value
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, ValueError):
        return None


def write_pickle(path: Path, value: object) -> None:
    """Pickle ``value`` to ``path`` atomically; a read-only cache directory is not an error."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, delete=False, suffix=".tmp") as temporary:
            pickle.dump(value, temporary, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temporary.name, path)
    except OSError:
        pass  # rebuilt next time
