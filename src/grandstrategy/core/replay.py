"""Replay a save: re-execute its log from the seed and check that it reaches the saved state.

Every chance event is drawn again from the seeded service and must equal the logged one; every
action must be legal for the logged seat; the final state hash must equal the saved one; a
snapshot, when present, must equal the replayed state. Any divergence is one
:class:`~grandstrategy.core.errors.SaveError` naming the log entry (``log[i]``).
"""

from __future__ import annotations

import os

from grandstrategy.core.canonical import canonical_json
from grandstrategy.core.committed import CommittedRng, check_commitment, parse_secret
from grandstrategy.core.errors import SaveError, UserInputError
from grandstrategy.core.log import ActionEntry, describe
from grandstrategy.core.save import SaveGame, load_save
from grandstrategy.core.session import Match


def replay(save: SaveGame) -> Match:
    """Re-execute ``save``'s log from its seed and return the resulting match.

    A save with committed dice (a server game, ``save.dice``) is replayed with the revealed
    secret instead of the seed: the secret must hash to the commitment, and every die and cup
    draw must be the one the secret gives. Before the game ends the secret is not in the save,
    and the replay says so.

    :raises SaveError: bad options; a chance outcome that differs from the seed's (or the dice
        secret's); an action that does not parse, is played by the wrong seat or is illegal; a
        log that ends early or runs past the end of the game; a state hash or snapshot that
        differs from the replayed one; committed dice whose secret is missing or does not match
        the commitment.
    """
    src = save.source
    rng = None
    source_name = f"seed {save.seed}"
    if save.dice is not None:
        secret_text = save.dice.get("secret")
        if not isinstance(secret_text, str):
            raise SaveError(
                f"{src}: the dice of this server game are committed but the secret is not revealed "
                "yet (it is published when the game ends), so the log cannot be replayed"
            )
        secret = parse_secret(secret_text)
        if not check_commitment(secret, str(save.dice.get("commitment"))):
            raise SaveError(f"{src}: dice.secret does not hash to dice.commitment: not the committed secret")
        rng = CommittedRng(secret)
        source_name = "the committed dice secret"
    try:
        match = Match(save.ruleset, seed=save.seed, options=save.options, rng=rng)
    except (UserInputError, ValueError) as error:
        raise SaveError(f"{src}: options: {error}") from None
    saved = save.log
    done = 0

    def check_new_entries() -> None:
        nonlocal done
        produced = match.log
        while done < len(produced):
            got = produced[done]
            if done >= len(saved):
                raise SaveError(
                    f"{src}: log[{done}]: the log ends here, but the game goes on with {describe(got)}"
                )
            want = saved[done]
            if got != want:
                raise SaveError(
                    f"{src}: log[{done}]: the save records {describe(want)}, but replaying from "
                    f"{source_name} gives {describe(got)} (the log was edited, or made with other rules)"
                )
            done += 1

    check_new_entries()
    while done < len(saved):
        entry = saved[done]
        if not isinstance(entry, ActionEntry):
            decision = match.decision()
            needed = f"a decision by {decision.seat}" if decision else "nothing (the game is over)"
            raise SaveError(
                f"{src}: log[{done}]: the save records {describe(entry)}, but the game needs {needed}"
            )
        try:
            match.play(entry.seat, entry.action)
        except UserInputError as error:
            raise SaveError(f"{src}: log[{done}]: {error}") from None
        check_new_entries()
    got_hash = match.state_hash()
    if got_hash != save.state_hash:
        raise SaveError(
            f"{src}: state_hash: the save says {save.state_hash}, but replaying the log gives {got_hash}"
        )
    if save.snapshot is not None:
        mine = {"state": match.state.to_json(), "chance": match.chance.getstate()}
        if canonical_json(mine) != canonical_json(save.snapshot):
            raise SaveError(f"{src}: snapshot: it differs from the state that replaying the log reaches")
    return match


def restore(save: SaveGame, *, verify: bool = True) -> Match:
    """Return the match a save describes.

    With ``verify`` (the default) the log is replayed (see :func:`replay`). Without it, a save
    that has a snapshot is restored from the snapshot directly (fast, for trusted saves), after
    checking the snapshot's hash; a save without a snapshot is replayed anyway.

    :raises SaveError: as :func:`replay`, or a snapshot that cannot be read or has the wrong hash.
    """
    if verify or save.snapshot is None or save.dice is not None:
        return replay(save)
    src = save.source
    try:
        state = save.ruleset.state_from_json(save.snapshot["state"])
        match = Match.resume(
            save.ruleset,
            seed=save.seed,
            options=save.options,
            state=state,
            chance_state=save.snapshot["chance"],
            log=save.log,
        )
    except (KeyError, TypeError, ValueError) as error:
        raise SaveError(f"{src}: snapshot: cannot be read: {error}") from None
    if match.state_hash() != save.state_hash:
        raise SaveError(
            f"{src}: snapshot: its state hash {match.state_hash()} is not the saved {save.state_hash}"
        )
    return match


def open_save(path: str | os.PathLike[str], *, verify: bool = True) -> Match:
    """Load the save at ``path`` and return its match: the one call a command line needs.

    :raises SaveError: only this, with a one-line message naming the file and the defect.
    """
    return restore(load_save(path), verify=verify)
