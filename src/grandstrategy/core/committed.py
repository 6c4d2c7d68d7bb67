"""Committed chance: draws derived from a secret whose hash is published before the first roll.

A game played on a server must not let the server (or anyone who reads its database) pick the
dice after seeing the moves, and must not let the players predict them. So the server draws a
secret of 32 random bytes when the game is created and publishes only its commitment
``SHA-256(secret)``. Every 64-bit word of randomness is then ``HMAC-SHA256(secret, index)`` (its
first eight bytes, big-endian), where ``index`` counts the words drawn so far in the game.
:class:`CommittedRng` offers the same calls as the seeded :class:`~grandstrategy.core.rng.Rng`
(``next_u64``, ``bits``, ``below``, ``getstate``/``setstate``), so the kernel's
:class:`~grandstrategy.core.chance.ChanceService` samples exactly as it does offline; only the
source of the bits differs. Its state is the word counter alone, never the secret.

When the game is over the secret is revealed; anyone can check that it hashes to the commitment
and, by replaying the log with a :class:`CommittedRng` built from it, that every die and every cup
draw came from it (:func:`grandstrategy.core.replay.replay`).
"""

from __future__ import annotations

import hashlib
import hmac
import re

from grandstrategy.core.rng import WordStream

SECRET_BYTES = 32
"""The length of a dice secret (the server draws it with :func:`secrets.token_bytes`)."""

_MASK64 = (1 << 64) - 1
_HEX64 = re.compile(r"[0-9a-f]{64}")
_STATE = re.compile(r"hmac:(0|[1-9][0-9]{0,19})")


def commitment(secret: bytes) -> str:
    """The public commitment to ``secret``: its SHA-256 as 64 lowercase hex digits."""
    return hashlib.sha256(secret).hexdigest()


def parse_secret(text: str) -> bytes:
    """The secret written as 64 hex digits.

    :raises ValueError: ``text`` is not 64 lowercase hex digits.
    """
    if not isinstance(text, str) or not _HEX64.fullmatch(text):
        raise ValueError("a dice secret is 64 lowercase hex digits")
    return bytes.fromhex(text)


def check_commitment(secret: bytes, published: str) -> bool:
    """Whether ``secret`` is the one committed to by ``published`` (compared in constant time)."""
    return hmac.compare_digest(commitment(secret), published)


class CommittedRng(WordStream):
    """A stream of 64-bit words, word ``i`` being the first 8 bytes of ``HMAC-SHA256(secret, i)``.

    ``i`` is written as 8 bytes big-endian. The state (``"hmac:<i>"``) is the count of words
    drawn; it holds nothing secret, so a snapshot of a running game may be stored or shown.

    :raises ValueError: the secret is not :data:`SECRET_BYTES` bytes long.
    """

    __slots__ = ("_index", "_key")

    def __init__(self, secret: bytes) -> None:
        if not isinstance(secret, bytes) or len(secret) != SECRET_BYTES:
            raise ValueError(f"a dice secret is {SECRET_BYTES} bytes")
        self._key = secret
        self._index = 0

    def next_u64(self) -> int:
        """The next word of the stream."""
        digest = hmac.new(self._key, self._index.to_bytes(8, "big"), hashlib.sha256).digest()
        self._index += 1
        return int.from_bytes(digest[:8], "big")

    def getstate(self) -> str:
        """The count of words drawn, as ``"hmac:<count>"``."""
        return f"hmac:{self._index}"

    def setstate(self, state: str) -> None:
        """Go back (or forward) to a state from :meth:`getstate`.

        :raises ValueError: ``state`` is not such a state.
        """
        found = _STATE.fullmatch(state) if isinstance(state, str) else None
        if found is None or int(found.group(1)) > _MASK64:
            raise ValueError(f"a committed-chance state is 'hmac:<count>', not {state!r}")
        self._index = int(found.group(1))

    def __repr__(self) -> str:
        return f"<CommittedRng at word {self._index}>"
