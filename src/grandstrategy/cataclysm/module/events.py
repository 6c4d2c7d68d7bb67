"""The crisis event kinds a module may use, and the parameters each one takes (LR 3.7.4).

A crisis table entry names one of these kinds; the engine's event handlers (rules part 1)
implement each kind once, so a table is data. Parameter kinds: ``area``/``areas`` must name
areas of the module, ``power``/``powers`` powers, ``ideology`` an ideology, ``commitment`` a
commitment level, ``table`` a die-result sub-table (keys "1".."6", "6" meaning 6 or more).
"""

from __future__ import annotations

from typing import Literal

ParamKind = Literal["area", "areas", "power", "powers", "ideology", "commitment", "table", "int"]

EVENT_KINDS: dict[str, dict[str, ParamKind]] = {
    # no change to the game state
    "no-effect": {},
    # each power with a cube in an ungarrisoned listed country checks effectiveness or loses it
    "neutrality-pact": {"areas": "areas"},
    # the same check for every ungarrisoned Chinese country without a Chinese army
    "chinese-resistance": {},
    # every power of an ideology checks effectiveness; success gains a flag
    "public-support": {"ideology": "ideology"},
    # one power's effectiveness drops by one until the end of the turn
    "political-crisis": {"power": "power"},
    # a power removes a cube from a controlled ungarrisoned country of least resistance
    "failed-putsch": {"power": "power"},
    # the next playable counter drawn goes back instead of being played
    "economic-setback": {},
    # roll a die (highest of two) on a sub-table of countries where civil war breaks out
    "civil-war": {"table": "table"},
    # every power of an ideology at or above a commitment takes a stability test
    "public-opposition": {"ideology": "ideology", "commitment": "commitment"},
    # roll on a sub-table of pairs of powers that each gain a flag
    "international-incident": {"table": "table"},
    # roll on the crisis table twice more and apply both results
    "double-crisis": {},
    # a power's reserve counter is lost (wartime)
    "labor-strikes": {"power": "power"},
    # a coup gives an ideology's powers a chance at an uncontrolled country (wartime)
    "coup": {"ideology": "ideology", "areas": "areas"},
    # a revolt in colonies or countries: roll on a sub-table of areas (wartime)
    "revolt": {"table": "table"},
    # every power at war takes a stability test if its stability is below steady (wartime)
    "war-weariness": {"ideology": "ideology"},
}

SUBTABLE_KEYS = ("1", "2", "3", "4", "5", "6")
