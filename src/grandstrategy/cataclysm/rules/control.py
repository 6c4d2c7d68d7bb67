"""Who controls what, who is at war with whom, and what each power scores.

Control LR 2.2.4 and 2.2.5; relations LR 1.1 and 6.1.2; interests LR 5.1; production sites
LR 2.3.9; victory points and the winner LR 1.7.
"""

from __future__ import annotations

from collections.abc import Mapping

from grandstrategy.cataclysm.module import Module
from grandstrategy.cataclysm.module.schema import (
    Area,
    AreaStatus,
    AreaType,
    Commitment,
    Ideology,
    Resource,
    ResourceKind,
)
from grandstrategy.cataclysm.module.world import area_controller, score
from grandstrategy.cataclysm.rules.aid import aid_interests
from grandstrategy.cataclysm.rules.frozen import memo_of
from grandstrategy.cataclysm.rules.recall import Recall, sharing_cubes
from grandstrategy.cataclysm.rules.special import denied_areas
from grandstrategy.cataclysm.state import CataclysmState


def ideology(module: Module, power: str) -> Ideology:
    return module.powers[power].ideology


def controller(module: Module, state: CataclysmState, area_id: str) -> str | None:
    """The power controlling the area now, or None (LR 2.2.4); surrendered powers control nothing.

    Remembered per area while the state is frozen (:mod:`~grandstrategy.cataclysm.rules.frozen`).
    """
    memo = memo_of(state)
    if memo is not None:
        key = ("controller", area_id)
        if key in memo:
            found: str | None = memo[key]
            return found
    powers = state.powers
    cubes = state.cubes.get(area_id)
    if not cubes:  # no cube: the owner of a home or colony area while it is in the game (LR 2.2.4)
        sea, owner, _ = module._control_facts[area_id]
        found = None if sea or owner is None or owner not in powers or not powers[owner].active else owner
    else:

        def active(power: str) -> bool:
            return power in powers and powers[power].active

        found = area_controller(module, area_id, cubes, active)
    if memo is not None:
        memo[key] = found
    return found


def is_country(module: Module, state: CataclysmState, area_id: str) -> bool:
    """A land or mixed area that is not currently its original owner's home or colony (LR 2.2.3, 2.2.5)."""
    area = module.area(area_id)
    if area.type is AreaType.SEA:
        return False
    if area.status is AreaStatus.COUNTRY or area.owner is None:
        return True
    return controller(module, state, area_id) != area.owner


def at_war(state: CataclysmState, a: str, b: str) -> bool:
    """Whether two powers are enemies (LR 1.1): on opposite sides of a war, and not at peace by armistice."""
    if sorted((a, b)) in state.peace:
        return False
    return any(
        (a in side_a and b in side_b) or (b in side_a and a in side_b) for side_a, side_b in state.wars
    )


def belligerent(state: CataclysmState, power: str) -> bool:
    """Whether the power is at war with at least one power (LR 1.1)."""
    for side_a, side_b in state.wars:
        if power in side_a and any(at_war(state, power, other) for other in side_b):
            return True
        if power in side_b and any(at_war(state, power, other) for other in side_a):
            return True
    return False


def allied(module: Module, state: CataclysmState, a: str, b: str) -> bool:
    """Whether the two powers are in the same alliance (LR 6.1)."""
    members = state.alliances.get(ideology(module, a).value, [])
    return a != b and a in members and b in members


def friendly_powers(module: Module, state: CataclysmState, a: str, b: str) -> bool:
    """Whether ``b``'s areas, units and bases are friendly to ``a`` (LR 6.1.2).

    A power is friendly to itself and to its allies while both are belligerent.
    """
    return a == b or (allied(module, state, a, b) and belligerent(state, a) and belligerent(state, b))


def friendly_area(module: Module, state: CataclysmState, power: str, area_id: str) -> bool:
    """Whether the land or mixed area is controlled by the power or a belligerent ally."""
    holder = controller(module, state, area_id)
    return holder is not None and friendly_powers(module, state, power, holder)


def interests(module: Module, state: CataclysmState, power: str) -> set[str]:
    """Every area the power has an interest in (LR 5.1), allies' interests included (a new set)."""
    memo = memo_of(state)
    if memo is not None:
        remembered = memo.get(("interests", power))
        if remembered is not None:
            return set(remembered)
    answers = _INTERESTS.answers(module, state)
    remembered = answers.get(power)
    if remembered is None:
        remembered = answers[power] = frozenset(_interests(module, state, power, answers))
    if memo is not None:
        memo[("interests", power)] = remembered
    return set(remembered)


def _interest_fields(state: CataclysmState) -> tuple[object, ...]:
    """What a power's interests read: control (the cubes, and the order of the holders where there
    are several, since the first may control the area; who is still in play), alliances, bases,
    aid and Influence."""
    cubes = state.cubes
    return (
        state.maps,
        cubes,
        [(area, list(held)) for area, held in cubes.items() if len(held) > 1],
        [(power, line.active) for power, line in state.powers.items()],
        state.alliances,
        state.base_owners,
        state.special_bases,
        state.civil_wars,
        state.chinese_aid,
        state.influence,
        state.chinese_armies,
    )


_INTERESTS = Recall(_interest_fields, copy=sharing_cubes(1))
"""Each power's interests, by the contents of the fields they read (see :mod:`.recall`)."""


def _interests(module: Module, state: CataclysmState, power: str, answers: dict[object, object]) -> set[str]:
    """The power's interests and its allies' (LR 5.1), sharing each power's own interests and the
    controller of every area through ``answers`` (the recall entry of the state's fields)."""
    found = set(_own(module, state, power, answers))
    for other in state.powers:
        if allied(module, state, power, other):
            found |= _own(module, state, other, answers)
    return found


def _own(module: Module, state: CataclysmState, power: str, answers: dict[object, object]) -> frozenset[str]:
    key = ("own", power)
    found = answers.get(key)
    if found is None:
        owners = answers.get(("controllers",))
        if owners is None:
            owners = answers[("controllers",)] = {
                area_id: controller(module, state, area_id) for area_id in module.in_play_ids(state.maps)
            }
        assert isinstance(owners, dict)
        found = answers[key] = frozenset(_own_interests(module, state, power, owners))
    assert isinstance(found, frozenset)
    return found


def _own_interests(
    module: Module, state: CataclysmState, power: str, owners: dict[str, str | None]
) -> set[str]:
    """The power's own interests (LR 5.1); ``owners``: the controller of every area in play."""
    table = _interest_table(module)
    in_play = module.in_play_ids(state.maps)
    controlled = [a for a in in_play if owners[a] == power]
    found = set(controlled)
    for area_id in controlled:
        # adjacent areas; a blue arrow joins areas for air units only and makes none adjacent (LR 2.3.4)
        found.update(table.near[area_id])
        if table.owner.get(area_id) == power:  # across a single sea area from own home or colony areas
            found.update(table.across[area_id])
    base_owners = state.base_owners
    for area_id, key in table.bases:
        if base_owners.get(key) == power:
            found.add(area_id)
    for area_id, owner in table.special_bases:
        if owner == power and area_id in state.special_bases:
            found.add(area_id)
    found |= aid_interests(state, power)  # aid and Influence give an interest (LR 5.1, 11.2)
    return found & set(in_play)


class _InterestTable:
    """The map facts :func:`_own_interests` reads, per module: worked out once."""

    def __init__(self, module: Module) -> None:
        self.module = module
        self.near: dict[str, tuple[str, ...]] = {}
        self.across: dict[str, frozenset[str]] = {}
        self.owner: dict[str, str | None] = {}
        for area in module.areas.values():
            self.near[area.id] = tuple(
                edge.target for edge in module.neighbors(area.id) if edge.kind != "air"
            )
            self.across[area.id] = frozenset(
                t
                for sea in module.sea_neighbors(area.id)
                for t in module.adjacent(sea, "naval")
                if not module.is_sea(t)
            )
            self.owner[area.id] = area.owner
        self.bases = tuple(
            (area.id, f"{area.id}#{index}")
            for area in module.areas.values()
            for index in range(len(area.bases))
        )
        self.special_bases = tuple(
            (area.id, area.special_base.owner)
            for area in module.areas.values()
            if area.special_base is not None
        )


_TABLES: dict[int, _InterestTable] = {}


def _interest_table(module: Module) -> _InterestTable:
    found = _TABLES.get(id(module))
    if found is None or found.module is not module:
        found = _TABLES[id(module)] = _InterestTable(module)
    return found


def production_sites(module: Module, state: CataclysmState, power: str) -> list[str]:
    """Where the power places new units and starts LOCs (LR 2.3.9).

    Home areas it controls with a non-limited industrial resource, and areas with Soviet special
    resources in play.
    """
    sites = []
    for area in _site_candidates(module, power):
        if area.map.value not in state.maps:
            continue
        if controller(module, state, area.id) != power or area.id in denied_areas(state, power):
            continue
        for resource in area.resources:
            industrial = resource.kind is ResourceKind.INDUSTRIAL and not resource.limited
            special = resource.kind is ResourceKind.SOVIET_SPECIAL and special_resource_in_play(
                state, area.owner, resource
            )
            if industrial or special:
                sites.append(area.id)
                break
    return sites


def _site_candidates(module: Module, power: str) -> tuple[Area, ...]:
    """The power's home areas with a resource that could make them a production site, in the
    module's order (the part of :func:`production_sites` that reads only the module)."""
    key = (id(module), power)
    found = _SITE_CANDIDATES.get(key)
    if found is None or found[0] is not module:
        areas = tuple(
            area
            for area in module.areas.values()
            if area.owner == power
            and area.status is AreaStatus.HOME
            and any(
                (r.kind is ResourceKind.INDUSTRIAL and not r.limited) or r.kind is ResourceKind.SOVIET_SPECIAL
                for r in area.resources
            )
        )
        found = _SITE_CANDIDATES[key] = (module, areas)
    return found[1]


_SITE_CANDIDATES: dict[tuple[int, str], tuple[Module, tuple[Area, ...]]] = {}


def special_resource_in_play(state: CataclysmState, owner: str | None, resource: Resource) -> bool:
    """Whether a special resource is on the map (LR 12.3.1, Industrial Reform): the area's owner
    places it on first reaching the commitment printed on it, and it stays there for good."""
    if resource.appears_at is None or owner is None or owner not in state.powers:
        return False
    levels = list(Commitment)
    return levels.index(state.powers[owner].commitment) >= levels.index(resource.appears_at)


def victory_points(module: Module, state: CataclysmState, power: str) -> int:
    """The power's victory points now (LR 1.7.1); a surrendered power still scores."""
    return score(module, state.cubes, power)


def ideology_scores(module: Module, state: CataclysmState) -> dict[Ideology, int]:
    """Each ideology's score: the sum of its powers' victory points, surrendered ones included.

    The count of :func:`victory_points` for every power in one pass over the cubes, remembered by
    the cubes and the powers in the game (a sum: their order does not matter). A new dict.
    """
    answers = _SCORES.answers(module, state)
    found = answers.get("scores")
    if found is None:
        found = answers["scores"] = _ideology_scores(module, state)
    return dict(found)


def _ideology_scores(module: Module, state: CataclysmState) -> dict[Ideology, int]:
    points = {power: 0 for power in module.powers if power in state.powers}
    areas = module.areas
    for area_id, held in state.cubes.items():
        area = areas.get(area_id)
        owner = area.owner if area is not None and area.owner in points else None
        for holder, count in held.items():
            if holder in points:
                points[holder] += count  # own cubes on the map
            if owner is not None and holder != owner:
                points[owner] -= count  # other cubes in the owner's home and colony areas
    scores = {ideo: 0 for ideo in Ideology}
    for power, value in points.items():
        scores[ideology(module, power)] += value
    return scores


_SCORES = Recall(lambda state: (state.cubes, list(state.powers)), copy=sharing_cubes(0))
"""Each ideology's score by the cubes and the powers in the game (see :mod:`.recall`)."""


def winner(scores: Mapping[Ideology, int]) -> Ideology:
    """The winning ideology (LR 1.7.2).

    Highest score wins; a tie goes to the Communists if they are in it, else to the Fascists. When
    both Fascists and Communists score above zero, the Democracies win only by beating their sum.
    """
    fascism, communism = scores[Ideology.FASCISM], scores[Ideology.COMMUNISM]
    contenders = dict(scores)
    if fascism > 0 and communism > 0 and scores[Ideology.DEMOCRACY] <= fascism + communism:
        del contenders[Ideology.DEMOCRACY]
    best = max(contenders.values())
    tied = [ideo for ideo, score in contenders.items() if score == best]
    if len(tied) == 1:
        return tied[0]
    return Ideology.COMMUNISM if Ideology.COMMUNISM in tied else Ideology.FASCISM


MARGIN_LIMIT = 40
"""The farthest :func:`win_margin` looks, in victory points, either way."""


def win_margin(scores: Mapping[Ideology, int], ideology: Ideology) -> int:
    """By how many victory points ``ideology`` stands from the winner test of LR 1.7.2.

    Positive: it wins now and would still win with that many VP less, less one (1: it wins, but
    one VP less would lose). Zero or negative: it loses now and needs one VP more than minus the
    margin to win (0: one VP more wins). Only the ideology's own score moves; the others stay, so
    the Democracies' need to beat the other two together (and the ties going to Communism, then
    Fascism) count exactly. Bounded by :data:`MARGIN_LIMIT` either way.
    """
    own = scores[ideology]
    shifted = dict(scores)

    def wins_with(delta: int) -> bool:
        shifted[ideology] = own + delta
        return winner(shifted) is ideology

    if wins_with(0):
        lost = 1
        while lost < MARGIN_LIMIT and wins_with(-lost):
            lost += 1
        return lost
    gained = 1
    while gained < MARGIN_LIMIT and not wins_with(gained):
        gained += 1
    return 1 - gained
