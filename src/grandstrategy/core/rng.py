"""A small deterministic random number generator, the only source of randomness in the engine.

The generator is xoshiro256** (Blackman and Vigna, 2018), seeded through SplitMix64, written in
pure Python so that a seed gives the same sequence on every Python version and platform. Python's
:mod:`random` promises no such thing across versions, so no module of the project calls it.

Integers are drawn without bias by rejection (:meth:`Rng.below`), which is what makes exact
sampling from :class:`fractions.Fraction` probabilities possible (see :mod:`.chance`).
"""

from __future__ import annotations

_MASK64 = (1 << 64) - 1


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & _MASK64


def splitmix64(state: int) -> tuple[int, int]:
    """One step of SplitMix64: return ``(new_state, output)``, both 64-bit unsigned integers."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return state, z ^ (z >> 31)


class WordStream:
    """Uniform integers from any stream of 64-bit words: subclasses give :meth:`next_u64`.

    The seeded :class:`Rng` and the server's committed stream
    (:class:`~grandstrategy.core.committed.CommittedRng`) share these draws, so a chance service
    samples the same way whichever stream it reads.
    """

    __slots__ = ()

    def next_u64(self) -> int:
        """Return the next 64-bit unsigned integer of the stream."""
        raise NotImplementedError

    def bits(self, k: int) -> int:
        """Return an integer of ``k`` random bits (``0 <= result < 2**k``), ``k >= 0``.

        Longer requests concatenate 64-bit words, high bits of each word first.
        """
        if k < 0:
            raise ValueError(f"bits(k) needs k >= 0, not {k}")
        result = 0
        while k > 0:
            take = min(k, 64)
            result = (result << take) | (self.next_u64() >> (64 - take))
            k -= take
        return result

    def below(self, n: int) -> int:
        """Return a uniformly distributed integer ``r`` with ``0 <= r < n``, without bias.

        Draws ``n.bit_length()`` bits and rejects values ``>= n`` (fewer than two tries on
        average), so ``n`` may be any positive integer, however large.

        :raises ValueError: ``n < 1``.
        """
        if n < 1:
            raise ValueError(f"below(n) needs n >= 1, not {n}")
        if n == 1:
            return 0
        k = (n - 1).bit_length()
        while True:
            r = self.bits(k)
            if r < n:
                return r


class Rng(WordStream):
    """xoshiro256**: a seeded stream of 64-bit integers with a serialisable state.

    >>> rng = Rng(42)
    >>> saved = rng.getstate()
    >>> first = rng.below(6)
    >>> rng.setstate(saved)
    >>> rng.below(6) == first
    True

    :param seed: an integer with ``0 <= seed < 2**64``.
    :raises ValueError: the seed is not such an integer.
    """

    __slots__ = ("_s",)

    def __init__(self, seed: int) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= _MASK64:
            raise ValueError(f"a seed must be an integer from 0 to 2**64 - 1, not {seed!r}")
        words = []
        sm = seed
        for _ in range(4):
            sm, out = splitmix64(sm)
            words.append(out)
        self._s: list[int] = words

    def next_u64(self) -> int:
        """Return the next 64-bit unsigned integer of the stream."""
        s = self._s
        result = (_rotl((s[1] * 5) & _MASK64, 7) * 9) & _MASK64
        t = (s[1] << 17) & _MASK64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = _rotl(s[3], 45)
        return result

    def getstate(self) -> str:
        """Return the generator's state as 64 hex digits (JSON friendly)."""
        return "".join(f"{word:016x}" for word in self._s)

    def setstate(self, state: str) -> None:
        """Restore a state returned by :meth:`getstate`.

        :raises ValueError: ``state`` is not 64 hex digits, or is all zeros (a dead state).
        """
        if not isinstance(state, str) or len(state) != 64:
            raise ValueError(f"an Rng state is 64 hex digits, not {state!r}")
        try:
            words = [int(state[i : i + 16], 16) for i in range(0, 64, 16)]
        except ValueError:
            raise ValueError(f"an Rng state is 64 hex digits, not {state!r}") from None
        if not any(words):
            raise ValueError("an Rng state of all zeros never changes and is not allowed")
        self._s = words

    @classmethod
    def from_state(cls, state: str) -> Rng:
        """Return a generator in the state returned by :meth:`getstate`.

        :raises ValueError: as :meth:`setstate`.
        """
        rng = cls(0)
        rng.setstate(state)
        return rng

    def __repr__(self) -> str:
        return f"Rng.from_state({self.getstate()!r})"
