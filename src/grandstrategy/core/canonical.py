"""Canonical JSON: one text per value, so hashes and saves are reproducible byte for byte.

Keys are sorted, non-ASCII text is kept as UTF-8, NaN and infinities are refused. Two forms
exist: a compact one for hashing and an indented one (two spaces, trailing newline) for files
that people may read and diff.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, TypeAlias

JSONValue: TypeAlias = Any
"""Any value that :func:`json.dumps` accepts: None, bool, int, float, str, list, dict."""

JSONObject: TypeAlias = dict[str, Any]
"""A JSON object (a dict with string keys)."""


def canonical_json(value: JSONValue) -> str:
    """Return the compact canonical JSON text of ``value`` (used for hashing).

    :raises TypeError: ``value`` holds something JSON cannot express.
    :raises ValueError: ``value`` holds NaN or an infinity.
    """
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def pretty_json(value: JSONValue) -> str:
    """Return the indented canonical JSON text of ``value``, ending in a newline (used for files).

    :raises TypeError: ``value`` holds something JSON cannot express.
    :raises ValueError: ``value`` holds NaN or an infinity.
    """
    return json.dumps(value, sort_keys=True, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def content_hash(value: JSONValue) -> str:
    """Return ``"sha256:<hex>"`` of the canonical JSON of ``value``.

    Used for state hashes and data-module hashes; the prefix names the algorithm so that a later
    change of algorithm is visible in old saves.
    """
    digest = hashlib.sha256(canonical_json(value).encode("utf-8")).hexdigest()
    return f"sha256:{digest}"
