"""Text normalisation for the index and the queries: words, stop words, a light stemmer, rule numbers."""

from __future__ import annotations

import itertools
import re

WORD = re.compile(r"[a-z0-9]+")
RULE_NUMBER = re.compile(r"(?<![\d.])(\d{1,2})\.(\d{1,2})(?:\.(\d{1,2}))?(?![\d])")

# Question scaffolding and function words: they say how a player asks, not what the rule is about.
STOP_WORDS = frozenset(
    [
        "a",
        "about",
        "after",
        "again",
        "all",
        "also",
        "am",
        "an",
        "and",
        "any",
        "are",
        "as",
        "at",
        "be",
        "been",
        "being",
        "but",
        "by",
        "can",
        "cataclysm",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "done",
        "during",
        "explain",
        "for",
        "from",
        "had",
        "more",
        "has",
        "have",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "let",
        "me",
        "mean",
        "means",
        "my",
        "of",
        "on",
        "or",
        "our",
        "please",
        "rule",
        "rules",
        "say",
        "says",
        "section",
        "sections",
        "should",
        "so",
        "tell",
        "than",
        "that",
        "the",
        "their",
        "them",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "to",
        "under",
        "up",
        "us",
        "was",
        "we",
        "were",
        "what",
        "whats",
        "when",
        "where",
        "which",
        "while",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "work",
        "works",
        "would",
        "you",
        "your",
        # contractions cut at the apostrophe (can't, I'm, don't, it's), pronouns and chat filler
        "t",
        "m",
        "s",
        "d",
        "ll",
        "re",
        "ve",
        "don",
        "doesn",
        "didn",
        "isn",
        "aren",
        "wasn",
        "weren",
        "wouldn",
        "couldn",
        "shouldn",
        "cant",
        "dont",
        "doesnt",
        "didnt",
        "isnt",
        "im",
        "ive",
        "he",
        "she",
        "him",
        "her",
        "his",
        "hers",
        "himself",
        "myself",
        "u",
        "ur",
        "pls",
        "plz",
        "hey",
        "hi",
        "ok",
        "okay",
        "guys",
        "lol",
        "yeah",
        "um",
        "tho",
        "though",
        "just",
        "actually",
        "really",
        "already",
        "anything",
        "something",
        "somebody",
        "someone",
        "anyone",
        "everyone",
        "everybody",
    ]
)

_EXCEPTIONS = {"ss", "us", "is", "os", "as"}


def stem(word: str) -> str:
    """Strip common English endings so that 'flags', 'flagged' and 'flag' meet; deliberately light."""
    if len(word) <= 3 or word.isdigit():
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("sses"):
        return word[:-2]
    if word.endswith("ing") and len(word) > 5:
        word = word[:-3]
        return word[:-1] if len(word) > 3 and word[-1] == word[-2] and word[-1] != "s" else word
    if word.endswith("ed") and len(word) > 4:
        word = word[:-2]
        return word[:-1] if len(word) > 3 and word[-1] == word[-2] and word[-1] != "s" else word
    if word.endswith("s") and word[-2:] not in _EXCEPTIONS:
        word = word[:-1]
    if word.endswith("tion") and len(word) > 6:
        return word[:-3]
    if word.endswith("e") and len(word) > 3:
        word = word[:-1]
    return word


def words(text: str) -> list[str]:
    """Lower-case word tokens, hyphens and apostrophes split ("us-japan" -> "us", "japan")."""
    return WORD.findall(text.lower())


def content_words(text: str) -> list[str]:
    """Words that carry meaning: everything except stop words."""
    return [word for word in words(text) if word not in STOP_WORDS]


def key(text: str) -> frozenset[str]:
    """An order-free key for a short phrase, used for exact term and title matching."""
    return frozenset(stem(word) for word in content_words(text))


def with_bigrams(stems: list[str]) -> list[str]:
    """Stems plus joined neighbour pairs, so that a phrase like 'home front' outweighs its words."""
    return stems + [f"{first}_{second}" for first, second in itertools.pairwise(stems)]


def rule_numbers(text: str) -> list[str]:
    """Rule numbers written in the text ("5.5.2", "10.7"), in order of appearance."""
    found = []
    for match in RULE_NUMBER.finditer(text):
        found.append(".".join(part for part in match.groups() if part is not None))
    return found
