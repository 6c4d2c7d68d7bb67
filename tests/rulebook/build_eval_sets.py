"""Rebuild the rules-assistant evaluation sets from the chatbot intents file (../shared/rules/002_...).

Every question pattern of every intent becomes one evaluation item, labelled with the Living Rules section
that the intent's answer comes from. The labels below were assigned by reading the Living Rules, not by
running the retriever. Where the intent's answer follows the older rulebook (see the engineering brief,
section 5.3), the label is still the Living Rules section that covers the topic.

Split rule (fixed, documented in docs/rules-assistant.md): intents are numbered from 1 in file order; every
5th intent (5, 10, 15, ...) goes to the held-out set, all others to the development set.

usage: python tests/rulebook/build_eval_sets.py [INTENTS_FILE]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared"
DEFAULT_SOURCE = SHARED / "rules" / "002_b424213be15bba39.txt"
OUT_DIR = REPO / "src" / "grandstrategy" / "rulebook" / "data" / "eval"
HELD_OUT_EVERY = 5

LABELS: dict[str, str] = {
    "Ideology": "1.1",
    "DemocraticPowers": "1.1",
    "FascistPowers": "1.1",
    "CommunistPower": "1.1",
    "Negotiations": "1.5",
    "EndingGame": "1.6",
    "WinningTheGame": "1.7.2",
    "Maps": "2.1",
    "LandArea": "2.2",
    "SeaArea": "2.2",
    "MixedArea": "2.2",
    "CoastalAreas": "2.2.1",
    "Ports": "2.2.2",
    "Airfeld": "2.2.2",
    "HomeAreasColonies": "2.2.3",
    "AreaControl": "2.2.4",
    "CountryControl": "2.2.5",
    "China": "2.2.6",
    "OffMapAreas": "2.2.7",
    "RemoteAreas": "2.2.8",
    "AdverseTerrain": "2.3.1",
    "Bases": "2.3.2",
    "BlackArrows": "2.3.4",
    "BlueArrow": "2.3.4",
    "DelayBoxes": "2.3.5",
    "MapConnectors": "2.3.6",
    "ResistanceRedFist": "2.3.7",
    "NaturalResource": "2.3.8",
    "IndustrialResources": "2.3.8",
    "LimitedResource": "2.3.8",
    "SpecialResources": "2.3.8",
    "ProductionSites": "2.3.9",
    "RestrictedTerrain": "2.3.10",
    "Cubes": "2.4",
    "PowerMarkers": "2.4.3",
    "MinorArmies": "2.4.4",
    "NeutralCubes": "2.4.5",
    "ReserveTrack": "2.5",
    "FailedPoliticalAction": "2.5",
    "PoliticalDisplay": "2.5",
    "StabilityTrack": "2.5",
    "TurnTrack": "2.5",
    "VictoryPointTrack": "2.5",
    "PowerStatusCard": "2.6",
    "ActionCup": "2.9",
    "OrderOfPlay": "3.1",
    "Administration Phase": "3.2",
    "GainFlags": "3.2.2",
    "Production": "3.2.3",
    "Action Phase": "3.3",
    "Reserve": "3.4",
    "Interrupts": "3.5",
    "ResolvingFlag": "3.7.1",
    "ResolvingUnit": "3.7.2",
    "ResolvingUpgrade": "3.7.3",
    "SuddenDeath": "3.7.5",
    "HomeFront": "3.7.6",
    "Commitment": "4.1",
    "Exhaustion": "4.1.2",
    "ForcePool": "4.1.1",
    "ProductionSequence": "4.2",
    "LineOfCommunications": "4.3",
    "TransferResources": "4.4.1",
    "CollectingResources": "4.4.2",
    "ConvertResources": "4.5",
    "Construction": "4.6",
    "WarOffensives": "4.7",
    "GainingFlags": "5.2.2",
    "Provocation": "5.2.3",
    "Effectiveness": "5.3",
    "FailedPoliticalActions": "5.4",
    "Stability": "5.5",
    "StabilityTests": "5.5.1",
    "Collapse": "5.5.2",
    "Collapse Procedure": "5.5.3",
    "Surrender": "5.5.4",
    "StartingWars": "5.6.1",
    "EndingWars": "5.6.2",
    "WarStatus": "5.6.3",
    "LimitedWar": "5.6.4",
    "GlobalWar": "5.6.5",
    "DiplomaticOpportunity": "5.7",
    "JoiningAlliance": "6.1.1",
    "PoliticalAction": "6.0",
    "BreakingAlliance": "6.1.4",
    "DeclarationOfWar": "6.2",
    "Diplomacy": "6.3",
    "IncreaseCommitment": "6.4",
    "Maneuvers": "6.5",
    "Propaganda": "6.7",
    "OccupationLimits": "7.1",
    "LogisticsUnits": "7.1.4",
    "Movement": "7.2",
    "LandMovement": "7.2.1",
    "NavalMovement": "7.2.2",
    "AirMovement": "7.2.3",
    "NavalRange": "7.3.1",
    "AirRange": "7.3.2",
    "ExtendedRange": "7.3.3",
    "MilitaryActions": "8.0",
    "Builds": "8.3",
    "Deployment": "8.4",
    "SubsequentActivation": "8.4.2",
    "OperationTypes": "9.1.2",
    "OperationSequence": "9.2",
    "LandOperationProcedure": "9.3.1",
    "NavalOperationProcedure": "9.4.1",
    "AirOperationProcedure": "9.5.1",
    "StrategicBombing": "9.5.2",
    "Supply": "9.6",
    "AttackingACountry": "9.7",
    "CivilWars": "9.7.1",
    "FailedAttacks": "9.7.2",
    "SurpriseAttack": "9.8",
    "CombatSequence": "10.1",
    "AirSuperiority": "10.3",
    "LandCombat": "10.4",
    "NavalCombat": "10.5",
    "AirCombat": "10.6",
    "CombatResult": "10.7",
    "Losses": "10.8",
    "Retreat": "10.10",
    "Regroup": "10.11",
    "CivilWarCrisis": "11.1",
    "CivilWarResolution": "3.7.7",
    "ChineseCivilWar": "11.4",
}


def parse_intents(text: str) -> list[tuple[str, int, list[tuple[int, str]]]]:
    """Return (intent name, line, [(line, question)]) in file order."""
    intents: list[tuple[str, int, list[tuple[int, str]]]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line.startswith("!"):
            intents.append((line[1:].strip(), number, []))
        elif line and not line.startswith("=") and intents:
            intents[-1][2].append((number, " ".join(line.split())))
    return intents


def main() -> int:
    source = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_SOURCE
    intents = parse_intents(source.read_text(encoding="utf-8", errors="replace"))
    missing = [name for name, _, _ in intents if name not in LABELS]
    if missing:
        print(f"no label for intents: {missing}", file=sys.stderr)
        return 1
    sets: dict[str, list[dict[str, object]]] = {"dev": [], "heldout": []}
    for index, (name, _, questions) in enumerate(intents, start=1):
        split = "heldout" if index % HELD_OUT_EVERY == 0 else "dev"
        for line, question in questions:
            sets[split].append(
                {"question": question, "section": LABELS[name], "intent": name, "source": f"002 L{line}"}
            )
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    for split, items in sets.items():
        path = OUT_DIR / f"{split}.jsonl"
        path.write_text(
            "".join(json.dumps(item, ensure_ascii=False) + "\n" for item in items), encoding="utf-8"
        )
        print(f"{path.relative_to(REPO)}: {len(items)} questions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
