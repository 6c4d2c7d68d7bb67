"""Where aid and Influence sit (LR 5.1, 11.2-11.4.5): the marker reads that control and politics need.

The bottom of the civil-war rules: :mod:`control` counts aid and Influence among a power's interests
and :mod:`politics` adds Influence to a diplomacy check, while :mod:`civil_war` (the arithmetic of
the wars themselves, which uses both) sits above them.
"""

from __future__ import annotations

from grandstrategy.cataclysm.state import CataclysmState

CHINA = "china"
"""Key of ``state.influence`` for the Influence that ends the Chinese Civil War (LR 11.4.5)."""


def aid_interests(state: CataclysmState, power: str) -> set[str]:
    """Areas where the power has aid or Influence, which gives it an interest (LR 5.1, 11.2, 11.3).

    Influence over the ended Chinese Civil War is an interest in every country with a Chinese
    army (LR 11.4.5).
    """
    found = {area for area, sides in state.civil_wars.items() if any(power in aid for aid in sides.values())}
    found |= {area for area, aid in state.chinese_aid.items() if power in aid}
    for area, owners in state.influence.items():
        if power not in owners:
            continue
        if area == CHINA:
            found |= set(state.chinese_armies)
        else:
            found.add(area)
    return found


def diplomacy_modifier(state: CataclysmState, power: str, area_id: str) -> int:
    """The civil-war part of a diplomacy modifier (LR 6.3, 11.3, 11.4.3, 11.4.5).

    +1 with the power's Influence in the area (Influence over China counts in countries with a
    Chinese army); -1 against a country occupied by a Chinese army.
    """
    modifier = 0
    if power in state.influence.get(area_id, []) or (
        area_id in state.chinese_armies and power in state.influence.get(CHINA, [])
    ):
        modifier += 1
    if area_id in state.chinese_armies:
        modifier -= 1
    return modifier
