"""Plain-English meanings of the markers a Cataclysm state can hold, each with its rule number.

``CataclysmState.markers`` holds the special markers of the scenario (section 12 of the rules,
listed per power in ``powers.yaml``) and the ones the engine adds as play goes on (Lend Lease or
the Trans-Siberian Railroad put in play, the A-Bomb available or in Washington DC, the losses of
an atomic attack while its stability test runs). A power's posture (LR 12.3) is kept on its
record line, and has its own meanings here. The words are ours, summing up the rule cited; the
rule itself is the authority.

The special rules name their powers, so this table does too (STYLE: rules code names a power only
where the rule does).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MarkerMeaning:
    """A marker's printed name, the rule that governs it, what it does now, and whom it binds."""

    name: str
    rule: str
    meaning: str
    powers: tuple[str, ...] = ()

    def text(self) -> str:
        """One line: ``Name (LR x.y): meaning``."""
        return f"{self.name} ({self.rule}): {self.meaning}"


_DEMOCRACIES = ("france", "united-kingdom", "united-states")

MARKERS: dict[str, MarkerMeaning] = {
    "stresa-front": MarkerMeaning(
        "Stresa Front in force",
        "LR 12.1",
        "Germany and Italy may not declare an operation or try diplomacy against an area in the "
        "other's interests; it leaves play once Germany and Italy ally, France and the United "
        "Kingdom ally, or Germany or Italy becomes belligerent.",
        ("germany", "italy"),
    ),
    "night-of-the-long-knives": MarkerMeaning(
        "Night of the Long Knives",
        "LR 12.1.1, 3.2.2",
        "Germany takes one extra flag in every administration phase; cancelled for good if "
        "Germany collapses.",
        ("germany",),
    ),
    "rhineland": MarkerMeaning(
        "Rhineland Demilitarized (face up)",
        "LR 12.1.1",
        "Germany may not occupy the Ruhr and cannot use its resources. Germany flips it to the Ruhr "
        "limited resource with a military action or a successful political action (a provocation "
        "to France and its allies), or it flips on its own when Germany becomes belligerent.",
        ("germany", "france"),
    ),
    "il-duce": MarkerMeaning(
        "Il Duce flag available",
        "LR 12.1.2, 3.2.2",
        "Italy may take the Il Duce flag as its administration flag; played for a political "
        "action it rolls one more die on the check. Cancelled for good if Italy collapses.",
        ("italy",),
    ),
    "abyssinian-adventure": MarkerMeaning(
        "Abyssinian Adventure available",
        "LR 12.1.2",
        "While non-belligerent, Italy may try it as a political action; success puts a limited "
        "resource and an Italian cube in Rome and provokes France and the United Kingdom.",
        ("italy",),
    ),
    "dreadnought-refit-italy": MarkerMeaning(
        "Dreadnought Refit available (Italy)",
        "LR 12.1.2",
        "Italy may spend it when building a surface fleet: the fleet costs one build less.",
        ("italy",),
    ),
    "dreadnought-refit-france": MarkerMeaning(
        "Dreadnought Refit available (France)",
        "LR 12.2.1",
        "France may spend it when building a surface fleet: the fleet costs one build less.",
        ("france",),
    ),
    "snlf": MarkerMeaning(
        "Special Naval Landing Forces",
        "LR 12.1.3",
        "Japanese armies add 1 to their land combat score in invasion operations.",
        ("japan",),
    ),
    "wnt": MarkerMeaning(
        "Washington Naval Treaty in force",
        "LR 12.1.3",
        "The Japanese, British and American force pools take no new fleets, and nobody may deploy "
        "to or attack areas beyond the WNT line in the Pacific. The treaty lapses once Britain or "
        "America is belligerent, or when Japan ends it (allowed at any moment; it provokes both).",
        ("japan", "united-kingdom", "united-states"),
    ),
    "status-quo": MarkerMeaning(
        "Status Quo in force",
        "LR 12.2, 3.2.2",
        "Democracies take no administration flag (France and the UK may take one at the cost of "
        "a stability test), collect resources only in their home areas and may not escalate to "
        "mobilization. It ends when Germany, Italy or the Soviet Union mobilizes, when Germany "
        "and Italy together outscore France and the UK, or when a Democracy becomes belligerent; "
        "each Democracy then gains a flag.",
        _DEMOCRACIES,
    ),
    "isolationism": MarkerMeaning(
        "Isolationism",
        "LR 12.2.2",
        "Until it is belligerent, the United States deploys land and logistics units only to its "
        "home areas and its own bases.",
        ("united-states",),
    ),
    "us-japan-trade": MarkerMeaning(
        "US-Japan Trade in force",
        "LR 12.2.2",
        "The United States ships one industrial resource to Japan in each administration phase, "
        "and neither it nor its allies may declare war on Japan. The US may try to end it as a "
        "political action (a provocation to Japan); it ends by itself when Japan is at war with "
        "a Democracy or loses Tokyo.",
        ("united-states", "japan"),
    ),
    "lend-lease": MarkerMeaning(
        "Lend Lease not yet in play",
        "LR 12.2.2",
        "Until it is in play the United States may not form or join an alliance. Once a War "
        "Status marker is on the political display the US may try to put it in play as a "
        "political action.",
        ("united-states",),
    ),
    "lend-lease-in-play": MarkerMeaning(
        "Lend Lease in play",
        "LR 12.2.2",
        "In production the United States may pass resources of its home areas to belligerent "
        "powers (at most one each), and it may form or join an alliance.",
        ("united-states",),
    ),
    "a-bomb": MarkerMeaning(
        "Atomic Bomb rule",
        "LR 12.2.2",
        "When the United States escalates to total war, the A-Bomb marker goes two turns ahead on "
        "the turn track.",
        ("united-states",),
    ),
    "a-bomb-available": MarkerMeaning(
        "A-Bomb available",
        "LR 12.2.2",
        "The United States may build it for one build; it goes into the action cup, never the reserve.",
        ("united-states",),
    ),
    "a-bomb-ready": MarkerMeaning(
        "A-Bomb in Washington DC",
        "LR 12.2.2",
        "As a military action the United States may make an atomic strategic bombing operation "
        "against an enemy home area; a defender that takes a loss makes a stability test.",
        ("united-states",),
    ),
    "posture": MarkerMeaning(
        "Posture rule",
        "LR 12.3",
        "Each Communist power is always in one posture; it may change it once a turn, by a "
        "political action (no check) or after its home front stability test.",
        ("soviet-union",),
    ),
    "industrial-reform": MarkerMeaning(
        "Industrial Reform",
        "LR 12.3.1",
        "The Soviet Union gains a permanent industrial resource in the Volga on escalating to "
        "mobilization and one in the Urals on escalating to total war.",
        ("soviet-union",),
    ),
    "trans-siberian-railroad": MarkerMeaning(
        "Trans-Siberian Railroad not yet in play",
        "LR 12.3.1",
        "The Soviet Union may try to place it in the Urals Delay box as a political action.",
        ("soviet-union",),
    ),
    "trans-siberian-railroad-in-play": MarkerMeaning(
        "Trans-Siberian Railroad in play",
        "LR 12.3.1",
        "The Urals Delay box is ignored, and the Soviet Union ignores restricted terrain in its "
        "home areas on the Pacific map.",
        ("soviet-union",),
    ),
}
"""Every marker ``CataclysmState.markers`` can hold, by its id (``a-bomb-losses:...`` aside)."""

POSTURES: dict[str, MarkerMeaning] = {
    "military-reforms": MarkerMeaning(
        "Posture: Military Reforms",
        "LR 12.3",
        "-1 on all political actions; the administration flag only at the cost of a stability test.",
    ),
    "political-purges": MarkerMeaning(
        "Posture: Political Purges",
        "LR 12.3",
        "-1 on diplomacy and -1 on the combat score in every combat.",
    ),
    "collective-security": MarkerMeaning(
        "Posture: Collective Security",
        "LR 12.3",
        "-1 on every political action but diplomacy; offensives may not be played (reject or "
        "reserve them when drawn).",
    ),
}
"""A Communist power's posture (``PowerState.posture``), in words."""

A_BOMB_LOSSES = "a-bomb-losses:"


def describe_marker(marker: str) -> MarkerMeaning:
    """The meaning of a marker id; an unknown id still gets a line (naming it), never an error."""
    found = MARKERS.get(marker)
    if found is not None:
        return found
    if marker.startswith(A_BOMB_LOSSES):
        _, power, losses = [*marker.split(":"), "", ""][:3]
        return MarkerMeaning(
            "A-Bomb losses",
            "LR 12.2.2, 5.5.1",
            f"{power} took {losses} {'loss' if losses == '1' else 'losses'} from the A-Bomb; should its "
            "stability test make it "
            "collapse, each adds one to its surrender threshold.",
            (power,),
        )
    return MarkerMeaning(marker, "LR 12", "a special marker in play (no description yet).")


def describe_posture(posture: str) -> MarkerMeaning:
    """The meaning of a posture id (LR 12.3)."""
    return POSTURES.get(posture) or MarkerMeaning(f"Posture: {posture}", "LR 12.3", "a Communist posture.")
