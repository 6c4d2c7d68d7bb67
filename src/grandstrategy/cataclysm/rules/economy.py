"""Production arithmetic (LR 4.4–4.7): what a power collects, what builds cost, war offensives.

These functions read the state and return what the rules give; the administration phase asks the
players for their choices (conversion, construction) and applies the result.
"""

from __future__ import annotations

from dataclasses import dataclass

from grandstrategy.cataclysm.module import Module
from grandstrategy.cataclysm.module.schema import AreaStatus, Ideology, Resource, ResourceKind
from grandstrategy.cataclysm.rules.control import (
    belligerent,
    controller,
    ideology,
    production_sites,
    special_resource_in_play,
)
from grandstrategy.cataclysm.rules.special import denied_areas
from grandstrategy.cataclysm.rules.supply import loc_reach
from grandstrategy.cataclysm.state import CataclysmState


@dataclass(frozen=True)
class Collected:
    """One resource a power collects this production (LR 4.4.2)."""

    area: str
    industrial: bool
    limited_marker: str | None


def limited_in_play(state: CataclysmState, resource: Resource) -> bool:
    """Whether a limited resource marker is on the map (LR 2.3.8).

    A printed limited marker is there until collected; one that a special marker brings in (the
    Rhineland's Ruhr, the Abyssinian Adventure's Rome) arrives once that marker has been played.
    """
    if resource.marker in state.used_limited:
        return False
    return resource.enters_by is None or resource.enters_by not in state.markers


def undamaged_printed(module: Module, state: CataclysmState, area_id: str) -> int:
    """Printed resources in the area without a Damage marker (LR 9.5.2, 4.8).

    ``state.damaged`` holds one entry per Damage marker, naming its area.
    """
    printed = sum(1 for r in module.area(area_id).resources if not r.limited)
    return max(0, printed - state.damaged.count(area_id))


def collectable(module: Module, state: CataclysmState, power: str) -> list[Collected]:
    """The resources the power can collect now, in map order (LR 4.4.2, 12.2 Status Quo).

    A resource needs an LOC unless it is in one of the power's production sites; each Damage
    marker stops one printed resource, an industrial one first (the attacker's obvious pick), and
    a limited marker in the same area is still collected (LR 9.5.2: a damaged limited resource
    leaves play instead); while Status Quo is in force a Democracy collects only in home areas. A
    special resource in play counts as a permanent industrial resource (LR 12.3.1).
    """
    sites = set(production_sites(module, state, power))
    denied = denied_areas(state, power)
    reach = loc_reach(module, state, power)
    status_quo = "status-quo" in state.markers and ideology(module, power) is Ideology.DEMOCRACY
    found: list[Collected] = []
    for area_id in module.in_play_ids(state.maps):
        area = module.area(area_id)
        if not area.resources or controller(module, state, area_id) != power:
            continue
        if area_id in denied:
            continue
        if status_quo and not (area.owner == power and area.status is AreaStatus.HOME):
            continue
        if area_id not in sites and area_id not in reach:
            continue
        damage = state.damaged.count(area_id)
        # industrial first, so the Damage markers fall on them (stable: map order otherwise kept)
        for resource in sorted(area.resources, key=lambda r: r.kind is not ResourceKind.INDUSTRIAL):
            special = resource.kind is ResourceKind.SOVIET_SPECIAL
            if special and not special_resource_in_play(state, area.owner, resource):
                continue
            if resource.limited and not limited_in_play(state, resource):
                continue
            if not resource.limited and damage:
                damage -= 1
                continue
            # a special resource in play is a permanent industrial resource (LR 12.3.1)
            industrial = special or resource.kind is ResourceKind.INDUSTRIAL
            found.append(Collected(area_id, industrial, resource.marker if resource.limited else None))
    return found


def collect(module: Module, state: CataclysmState, power: str) -> tuple[int, int]:
    """Collect the power's resources into its holding box; return (resources, industrial) (LR 4.4.2).

    Each collected resource takes one resource marker from available; without markers the excess is
    lost. A limited marker leaves play only when collected (LR 4.4): printed resources are taken
    first, so when markers run short the limited markers left over stay on the map for a later turn.
    """
    line = state.line_to_change(power)
    resources = industrial = 0
    found = collectable(module, state, power)
    for item in [c for c in found if c.limited_marker is None] + [c for c in found if c.limited_marker]:
        if line.available_offensives == 0:
            continue
        if item.limited_marker is not None:
            state.used_limited.append(item.limited_marker)
        line.available_offensives -= 1
        line.holding_box.append(f"resource:{power}")
        resources += 1
        industrial += item.industrial
    return resources, industrial


def build_cost(module: Module, power: str, item: str, *, dreadnought_refit: bool = False) -> tuple[int, bool]:
    """(builds, goes to next turn's box) for constructing ``item`` (LR 4.6).

    ``item`` is a unit type id or ``upgrade:<counter>``. Upgrade markers and surface fleets cost
    two builds (a Dreadnought Refit fleet one); fleets and fortresses go to the next turn's box.
    """
    if item.startswith("upgrade:"):
        return 2, False
    if item not in module.unit_types:
        raise ValueError(f"unknown unit type {item!r}")
    if item == "surface-fleet":
        return (1 if dreadnought_refit else 2), True
    if item == "fortress":
        return 1, True
    return 1, False


def war_offensives(state: CataclysmState, power: str, industrial_collected: int) -> int:
    """Offensives a belligerent power gains for industrial resources collected this turn (LR 4.7)."""
    return industrial_collected if belligerent(state, power) else 0
