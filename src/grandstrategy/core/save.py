"""Versioned JSON saves: write atomically, load with one clear error per defect, replay and check.

A save records what reproduces a game: the rule set, its data module (id, version, content hash),
the seed, the options and the action log (actions in notation and every chance event), plus the
hash of the state the log leads to and, optionally, a snapshot of that state. It is written as
canonical JSON (sorted keys, two-space indent, trailing newline), so save, load and save again
gives the same bytes. Never pickle.

:func:`replay` re-executes the log from the seed: every chance event is drawn again and must equal
the logged outcome, every action must be legal, and the final state must have the saved hash.
:func:`open_save` (load, then replay) is what a command line calls; it raises only
:class:`~grandstrategy.core.errors.SaveError`, whose message is one line naming the file and field.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any

from grandstrategy.core.canonical import JSONObject, JSONValue, pretty_json
from grandstrategy.core.errors import SaveError, UserInputError
from grandstrategy.core.files import MAX_SAVE_BYTES, BadFile, atomic_write, parse_json, read_text
from grandstrategy.core.game import ModuleInfo, RuleSet, find_ruleset
from grandstrategy.core.log import ActionEntry, LogEntry, entry_from_json
from grandstrategy.core.session import Match

FORMAT = "grandstrategy-save"
FORMAT_VERSION = 1
_FIELDS = {
    "format",
    "format_version",
    "ruleset",
    "module",
    "seed",
    "options",
    "log",
    "state_hash",
    "snapshot",
    "dice",
}


@dataclass(frozen=True)
class SaveGame:
    """A loaded or about-to-be-written save. ``source`` (a path, for messages) is not saved."""

    ruleset: RuleSet
    module: ModuleInfo
    seed: int
    options: JSONObject
    log: tuple[LogEntry, ...]
    state_hash: str
    snapshot: JSONObject | None = None
    source: str = field(default="<save>", compare=False)
    dice: JSONObject | None = None
    """Committed dice (a server game): ``{"scheme", "commitment"}`` plus ``"secret"`` once the game
    is over (:mod:`grandstrategy.core.committed`); ``None`` for a game whose seed decides chance."""

    def to_json(self) -> JSONObject:
        """The save as a JSON object (``snapshot`` only when there is one)."""
        data: JSONObject = {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "ruleset": self.ruleset.name,
            "module": self.module.to_json(),
            "seed": self.seed,
            "options": self.options,
            "log": [entry.to_json() for entry in self.log],
            "state_hash": self.state_hash,
        }
        if self.snapshot is not None:
            data["snapshot"] = self.snapshot
        if self.dice is not None:
            data["dice"] = self.dice
        return data

    def dumps(self) -> str:
        """The canonical text of the save: sorted keys, two-space indent, one log entry per line."""
        return render_save(self.to_json())


def render_save(data: JSONObject) -> str:
    """Render a save object canonically: like :func:`pretty_json`, but each log entry on one line.

    One line per entry keeps long logs short and makes diffs of two saves read like the game.
    """
    items = sorted(data.items())
    lines = ["{"]
    for index, (key, value) in enumerate(items):
        comma = "," if index < len(items) - 1 else ""
        if key == "log" and isinstance(value, list) and value:
            body = ",\n".join(
                "    " + json.dumps(e, sort_keys=True, ensure_ascii=False, allow_nan=False) for e in value
            )
            text = "[\n" + body + "\n  ]"
        else:
            text = pretty_json(value).rstrip("\n").replace("\n", "\n  ")
        lines.append(f"  {json.dumps(key, ensure_ascii=False)}: {text}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def save_game(match: Match, *, snapshot: bool = False) -> SaveGame:
    """Return the save of ``match`` as it stands; with ``snapshot``, include the current state."""
    snap = {"state": match.state.to_json(), "chance": match.chance.getstate()} if snapshot else None
    return SaveGame(
        ruleset=match.ruleset,
        module=match.ruleset.module,
        seed=match.seed,
        options=dict(match.options),
        log=match.log,
        state_hash=match.state_hash(),
        snapshot=snap,
    )


# ---- reading -------------------------------------------------------------------------------------


def _need(data: JSONObject, name: str, kind: type | tuple[type, ...], what: str, source: str) -> Any:
    if name not in data:
        raise SaveError(f"{source}: missing field {name!r}")
    value = data[name]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise SaveError(f"{source}: field {name!r} must be {what}, not {_short(value)}")
    return value


def _short(value: JSONValue) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


def _module(data: JSONObject, source: str) -> ModuleInfo:
    module = _need(data, "module", dict, "an object with id, version and hash", source)
    parts = []
    for key in ("id", "version", "hash"):
        value = module.get(key)
        if not isinstance(value, str):
            raise SaveError(f"{source}: field 'module.{key}' must be text, not {_short(value)}")
        parts.append(value)
    if set(module) != {"id", "version", "hash"}:
        extra = ", ".join(repr(k) for k in sorted(set(module) - {"id", "version", "hash"}))
        raise SaveError(f"{source}: unknown field(s) in 'module': {extra}")
    return ModuleInfo(*parts)


def parse_save(data: JSONValue, *, source: str = "<save>") -> SaveGame:
    """Check decoded JSON and turn it into a :class:`SaveGame` (no replay yet).

    :raises SaveError: not an object; wrong or missing format marker; unsupported
        ``format_version`` (the supported one is named); a missing, ill-typed or unknown field
        (named); an unknown rule set; a module whose id, version or content hash differs from the
        installed one; a log entry
        that is malformed or whose action does not parse (with its index, ``log[i]``).
    """
    if not isinstance(data, dict):
        raise SaveError(f"{source}: not a grandstrategy save (the JSON is not an object)")
    if data.get("format") != FORMAT:
        raise SaveError(f"{source}: not a grandstrategy save (field 'format' is not {FORMAT!r})")
    version = _need(data, "format_version", int, "an integer", source)
    if version != FORMAT_VERSION:
        newer = " (made by a newer grandstrategy?)" if version > FORMAT_VERSION else ""
        raise SaveError(
            f"{source}: save format version {version} is not supported{newer}; "
            f"this grandstrategy reads version {FORMAT_VERSION}"
        )
    unknown = sorted(set(data) - _FIELDS)
    if unknown:
        raise SaveError(f"{source}: unknown field(s) {', '.join(map(repr, unknown))}")
    name = _need(data, "ruleset", str, "text", source)
    module = _module(data, source)
    seed = _need(data, "seed", int, "an integer", source)
    if not 0 <= seed < 2**64:
        raise SaveError(f"{source}: field 'seed' must be from 0 to 2**64 - 1, not {seed}")
    options = _need(data, "options", dict, "an object", source)
    raw_log = _need(data, "log", list, "a list", source)
    state_hash = _need(data, "state_hash", str, "text", source)
    snapshot = data.get("snapshot")
    if snapshot is not None and not isinstance(snapshot, dict):
        raise SaveError(f"{source}: field 'snapshot' must be an object or null, not {_short(snapshot)}")
    dice = data.get("dice")
    if dice is not None:
        dice = _dice(dice, source)
    try:
        ruleset = find_ruleset(name)
    except UserInputError as error:
        raise SaveError(f"{source}: {error}") from None
    installed = ruleset.module
    if (module.id, module.version, module.hash) != (installed.id, installed.version, installed.hash):
        raise SaveError(
            f"{source}: the save was made with module {module.id!r} version {module.version} "
            f"({module.hash}), but rule set {ruleset.name!r} has module {installed.id!r} "
            f"version {installed.version} ({installed.hash})"
        )
    log: list[LogEntry] = []
    for index, raw in enumerate(raw_log):
        try:
            entry = entry_from_json(raw)
            if isinstance(entry, ActionEntry):
                ruleset.parse_action(entry.action)
        except ValueError as error:  # includes NotationError
            raise SaveError(f"{source}: log[{index}]: {error}") from None
        log.append(entry)
    return SaveGame(ruleset, module, seed, dict(options), tuple(log), state_hash, snapshot, source, dice)


DICE_SCHEME = "hmac-sha256"
"""The one committed-dice scheme (:mod:`grandstrategy.core.committed`)."""


def _dice(value: JSONValue, source: str) -> JSONObject:
    """Check a save's ``dice`` field: the scheme, a commitment and, once revealed, the secret."""
    if not isinstance(value, dict):
        raise SaveError(f"{source}: field 'dice' must be an object, not {_short(value)}")
    unknown = sorted(set(value) - {"scheme", "commitment", "secret"})
    if unknown:
        raise SaveError(f"{source}: unknown field(s) in 'dice': {', '.join(map(repr, unknown))}")
    if value.get("scheme") != DICE_SCHEME:
        raise SaveError(
            f"{source}: field 'dice.scheme' must be {DICE_SCHEME!r}, not {_short(value.get('scheme'))}"
        )
    for key in ("commitment", "secret"):
        text = value.get(key)
        if (key in value or key == "commitment") and not (
            isinstance(text, str) and len(text) == 64 and all(c in "0123456789abcdef" for c in text)
        ):
            raise SaveError(
                f"{source}: field 'dice.{key}' must be 64 lowercase hex digits, not {_short(text)}"
            )
    return dict(value)


def loads_save(text: str, *, source: str = "<save>") -> SaveGame:
    """Parse save text (see :func:`parse_save`).

    The JSON is read strictly (:func:`~grandstrategy.core.files.parse_json`): bounded nesting
    and number length, no key given twice, no NaN.

    :raises SaveError: empty or invalid JSON (with line and column), or any defect of
        :func:`parse_save`.
    """
    if not text.strip():
        raise SaveError(f"{source}: the file is empty, not a save")
    try:
        data = parse_json(text, source)
    except BadFile as error:
        hint = "; the file may be truncated or not a save" if "not valid JSON" in error.reason else ""
        raise SaveError(f"{error}{hint}") from None
    return parse_save(data, source=source)


def load_save(path: str | os.PathLike[str]) -> SaveGame:
    """Read and check the save at ``path`` (no replay yet).

    Only a regular file of at most :data:`~grandstrategy.core.files.MAX_SAVE_BYTES` is read.

    :raises SaveError: the file cannot be read, is not a regular file, is too big, is not UTF-8
        text, or has any defect of :func:`loads_save`; the message starts with the path.
    """
    source = os.fspath(path)
    try:
        text = read_text(path, limit=MAX_SAVE_BYTES, source=source)
    except BadFile as error:
        raise SaveError(str(error)) from None
    return loads_save(text, source=source)


# ---- writing -------------------------------------------------------------------------------------


def write_save(path: str | os.PathLike[str], save: SaveGame) -> None:
    """Write ``save`` to ``path`` atomically: the file holds either the old or the new save.

    :raises SaveError: the file cannot be written (the message names the path and the reason).
    """
    try:
        atomic_write(path, save.dumps().encode("utf-8"))
    except OSError as error:
        raise SaveError(f"{os.fspath(path)}: cannot write: {error.strerror or error}") from None
