"""WordLlama's tokenizer without the ``tokenizers`` library: byte-fallback BPE over compact tables.

Parsing the model's 1.8 MB tokenizer JSON with ``tokenizers`` costs 0.1-0.4 s of CPU at every cold start,
more than the rest of a ``grandstrategy rules ask``. The model (Llama 2's) is a plain BPE: the text gets a
leading "▁" and its spaces become "▁"; each character is a token, or its UTF-8 bytes' tokens when it has
none; then adjacent pairs merge, the lowest merge rank first and the leftmost first among equals. The three
special tokens (``<unk>``, ``<s>``, ``</s>``) are cut out of the text before that, as ``tokenizers`` does.

:func:`load_tokenizer` builds the tables (single characters, byte tokens, merges as integers) from the
JSON once, pickles them into the user's cache directory under the JSON's checksum and reads that pickle
afterwards. A tokenizer this module cannot reproduce (another normaliser, a pre-tokenizer, dropout ...)
raises :class:`UnsupportedTokenizer` and the caller uses ``tokenizers`` instead.
tests/rulebook/test_tokenizer.py compares the two token for token.
"""

from __future__ import annotations

import hashlib
import heapq
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from grandstrategy.rulebook.cache import cache_dir, read_pickle, write_pickle

FORMAT = 1
SPACE = "\u2581"  # "▁", SentencePiece's word mark
# A run of word marks and the characters up to the next one. No token of a supported vocabulary holds a
# mark after another character, so no merge crosses from one chunk into the next: chunks are tokenized
# (and cached) one by one.
CHUNK = re.compile(f"{SPACE}*[^{SPACE}]*")
EXPECTED_NORMALIZER = {
    "type": "Sequence",
    "normalizers": [
        {"type": "Prepend", "prepend": SPACE},
        {"type": "Replace", "pattern": {"String": " "}, "content": SPACE},
    ],
}


class UnsupportedTokenizer(Exception):
    """The tokenizer file is not the byte-fallback BPE this module reproduces."""


@dataclass
class CompactTokenizer:
    """The tables of a byte-fallback BPE: ``encode(text)`` returns the token ids ``tokenizers`` would."""

    characters: dict[str, int]  # single-character tokens
    byte_tokens: list[int]  # the id of "<0xNN>" for every byte value
    merges: dict[int, int]  # left * size + right -> rank
    merged: list[int]  # rank -> the merged token's id
    size: int  # vocabulary size (pair keys are left * size + right)
    special: dict[str, int]  # tokens cut out of the text before normalisation
    chunked: bool  # no token holds a word mark after another character (see CHUNK)
    _special_pattern: re.Pattern[str] | None = field(default=None, repr=False, compare=False)
    _chunk_cache: dict[str, list[int]] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.special:
            alternatives = sorted(self.special, key=len, reverse=True)  # the longest match wins
            self._special_pattern = re.compile("|".join(re.escape(token) for token in alternatives))

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CompactTokenizer:
        """The tables of a ``tokenizers`` JSON file; UnsupportedTokenizer unless it is a byte-fallback BPE."""
        model = data.get("model") or {}
        plain = (
            model.get("type") == "BPE"
            and model.get("byte_fallback") is True
            and not model.get("dropout")
            and not model.get("continuing_subword_prefix")
            and not model.get("end_of_word_suffix")
            and not model.get("ignore_merges")
            and data.get("normalizer") == EXPECTED_NORMALIZER
            and data.get("pre_tokenizer") is None
        )
        if not plain:
            raise UnsupportedTokenizer("not a plain byte-fallback BPE with SentencePiece normalisation")
        vocabulary: dict[str, int] = model["vocab"]
        size = max(vocabulary.values()) + 1
        byte_tokens = [vocabulary.get(f"<0x{value:02X}>", -1) for value in range(256)]
        if -1 in byte_tokens:
            raise UnsupportedTokenizer("the vocabulary lacks some byte tokens")
        special: dict[str, int] = {}
        for token in data.get("added_tokens") or []:
            if (
                token.get("single_word")
                or token.get("lstrip")
                or token.get("rstrip")
                or token.get("normalized")
            ):
                raise UnsupportedTokenizer(f"added token {token.get('content')!r} needs matching rules")
            special[str(token["content"])] = int(token["id"])
        merges: dict[int, int] = {}
        merged: list[int] = []
        for rank, entry in enumerate(model["merges"]):
            left, right = entry.split(" ") if isinstance(entry, str) else entry
            merges[vocabulary[left] * size + vocabulary[right]] = rank  # a repeated pair: the later rank
            merged.append(vocabulary[left + right])
        characters = {token: index for token, index in vocabulary.items() if len(token) == 1}
        chunked = not any(
            SPACE in token.lstrip(SPACE) for token in vocabulary if token not in special
        )  # "▁▁ab" is fine, "a▁b" is not
        return cls(characters, byte_tokens, merges, merged, size, special, chunked)

    def encode(self, text: str) -> list[int]:
        """Token ids of ``text``, no special tokens added (``encode(text, add_special_tokens=False)``)."""
        ids: list[int] = []
        pattern = self._special_pattern
        position = 0
        if pattern is not None:
            for found in pattern.finditer(text):
                ids += self._encode_segment(text[position : found.start()])
                ids.append(self.special[found.group()])
                position = found.end()
        ids += self._encode_segment(text[position:])
        return ids

    def _encode_segment(self, text: str) -> list[int]:
        if not text:
            return []
        normalized = SPACE + text.replace(" ", SPACE)
        if not self.chunked:
            return self._bpe(normalized)
        ids: list[int] = []
        for chunk in CHUNK.findall(normalized):
            if not chunk:
                continue
            cached = self._chunk_cache.get(chunk)
            if cached is None:
                cached = self._bpe(chunk)
                if len(self._chunk_cache) < 100_000:
                    self._chunk_cache[chunk] = cached
            ids += cached
        return ids

    def _bpe(self, text: str) -> list[int]:
        """Merge the characters of ``text`` like tokenizers' BPE ``merge_all`` (a heap of rank, position)."""
        symbols: list[int] = []
        for character in text:
            token = self.characters.get(character)
            if token is not None:
                symbols.append(token)
            else:
                symbols += [self.byte_tokens[b] for b in character.encode("utf-8", "surrogatepass")]
        count = len(symbols)
        if count < 2:
            return symbols
        merges, merged, size = self.merges, self.merged, self.size
        alive = [True] * count
        previous = list(range(-1, count - 1))
        following = [*range(1, count), -1]
        heap: list[tuple[int, int, int]] = []
        for position in range(count - 1):
            rank = merges.get(symbols[position] * size + symbols[position + 1])
            if rank is not None:
                heap.append((rank, position, merged[rank]))
        heapq.heapify(heap)
        while heap:
            rank, position, new = heapq.heappop(heap)
            if not alive[position]:
                continue
            right = following[position]
            if right == -1:
                continue
            current = merges.get(symbols[position] * size + symbols[right])
            if current is None or merged[current] != new:  # an expired entry
                continue
            symbols[position] = new
            alive[right] = False
            after = following[right]
            following[position] = after
            if after != -1:
                previous[after] = position
            before = previous[position]
            if before >= 0:
                pair = merges.get(symbols[before] * size + new)
                if pair is not None:
                    heapq.heappush(heap, (pair, before, merged[pair]))
            if after != -1:
                pair = merges.get(new * size + symbols[after])
                if pair is not None:
                    heapq.heappush(heap, (pair, position, merged[pair]))
        return [symbol for symbol, kept in zip(symbols, alive, strict=True) if kept]


def load_tokenizer(path: Path, use_cache: bool = True) -> CompactTokenizer:
    """The compact tables for the tokenizer JSON at ``path``: from the cache when its checksum matches."""
    raw = path.read_bytes()
    digest = hashlib.sha256(raw + f"|{FORMAT}".encode()).hexdigest()[:16]
    cached_path = cache_dir() / f"tokenizer-{digest}.pickle"
    if use_cache:
        cached = read_pickle(cached_path)
        if isinstance(cached, CompactTokenizer):
            return cached
    tokenizer = CompactTokenizer.from_json(json.loads(raw))
    if use_cache:
        write_pickle(cached_path, tokenizer)
    return tokenizer
