"""What one rule set of the Revised family decides differently: a small profile with hooks.

The engine (:mod:`.engine`) implements the sequence of play and combat once. Everything that one
rule set reads differently from another lives here, as data or as a method a variant overrides:
the unit numbers it reads from the module, the victory condition, income and plunder, the
production limit of a factory. The Historical Edition variant is meant to subclass
:class:`Profile` and override hooks rather than copy the engine.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Protocol

from grandstrategy.axis_allies.module.schema import Domain
from grandstrategy.axis_allies.module.world import MapModule


@dataclass(frozen=True, slots=True)
class UnitStats:
    """The numbers the engine needs for one unit type, read from the module's ``units.yaml``."""

    id: str
    domain: str  # land, sea, air, structure
    cost: int
    movement: int
    attack: int
    defence: int
    hit_points: int
    factory: bool
    aa_gun: bool
    artillery: bool
    supportable: bool
    blitz: bool
    carrier_capacity: int
    carrier_cost: int
    transport_capacity: int
    transport_cost: int
    strategic_bomber: bool
    sub: bool
    destroyer: bool
    bombard: bool

    @property
    def combat(self) -> bool:
        """Whether the unit fights in a battle (rolls dice and can be a casualty)."""
        return not self.factory and not self.aa_gun


def _int(value: object, default: int = 0) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def read_stats(module: MapModule) -> Mapping[str, UnitStats]:
    """Every unit type's stats, by id, as the module states them (TripleA option names)."""
    table: dict[str, UnitStats] = {}
    for unit in module.unit_types.values():
        s = unit.stats
        table[unit.id] = UnitStats(
            id=unit.id,
            domain=unit.domain.value,
            cost=unit.cost or 0,
            movement=_int(s.get("movement")),
            attack=_int(s.get("attack")),
            defence=_int(s.get("defense")),
            hit_points=_int(s.get("hitPoints"), 1),
            factory=bool(s.get("isFactory")),
            aa_gun=bool(s.get("isAA")),
            artillery=bool(s.get("artillery")),
            supportable=bool(s.get("artillerySupportable")),
            blitz=bool(s.get("canBlitz")),
            carrier_capacity=_int(s.get("carrierCapacity")),
            carrier_cost=_int(s.get("carrierCost")) if unit.domain is Domain.AIR else 0,
            transport_capacity=_int(s.get("transportCapacity")),
            transport_cost=_int(s.get("transportCost")),
            strategic_bomber=bool(s.get("isStrategicBomber")),
            sub=bool(s.get("isSub")),
            destroyer=bool(s.get("isDestroyer")),
            bombard=bool(s.get("canBombard")),
        )
    return MappingProxyType(table)


class BattleMachine(Protocol):
    """A variant's own battle steps (see :meth:`Profile.battle_machine`). The battle lives in the
    game's ``d["battle"]``, marked with a ``"machine"`` key; ``game`` is the engine's state."""

    def open(self, game: Any, where: str) -> None: ...

    def to_act(self, game: Any) -> str | None:
        """The power to decide now, or None when a die is to be rolled."""
        ...

    def options(self, game: Any) -> list[str]: ...

    def choose(self, game: Any, option: str) -> None: ...

    def chance_label(self, game: Any) -> str: ...

    def apply_die(self, game: Any, face: int) -> None: ...


class Profile:
    """Revised with LHTR 1.3: the hooks the engine asks. Subclass and override for a variant.

    ``name`` goes into saves through the rule set; ``module`` is the map module it plays on.
    """

    name = "revised-lhtr"
    title = "Axis & Allies Revised, LHTR 1.3"
    default_max_rounds = 12

    def __init__(self, module: MapModule) -> None:
        self.module = module
        self.stats = read_stats(module)
        self._properties = {p.name: p.value for p in module.rules.properties}

    # ---- victory ----------------------------------------------------------------------------

    def victory_cities_needed(self, alliance: str) -> int:
        """VCs an alliance must hold at the end of a round to win.

        Revised's rulebook victory (the module's ``Projection of Power`` option, on by default):
        the ``<Alliance> Projection of Power VCs`` property (9 of 12 in Revised).
        """
        value = self._properties.get(f"{alliance.capitalize()} Projection of Power VCs")
        return value if isinstance(value, int) and not isinstance(value, bool) else 9

    # ---- economy ----------------------------------------------------------------------------

    def income(self, ipc_owned: int, capital_held: bool) -> int:
        """Income collected at the end of a turn: the IPC value of the power's territories,
        nothing while an enemy holds its capital (Revised, Collect Income)."""
        return ipc_owned if capital_held else 0

    def plunder(self, bank: int) -> int:
        """IPCs the captor of a capital takes from the owner's bank: all of them (Revised)."""
        return bank

    def production_limit(self, territory_ipc: int) -> int:
        """Units a factory may mobilize per turn: the territory's IPC value (Revised)."""
        return territory_ipc

    def unit_cost(self, unit: str) -> int:
        """The price of a unit type in the starting production frontier."""
        return self.stats[unit].cost

    def purchasable(self) -> tuple[str, ...]:
        """Unit types on sale, in the module's order (anything with a price)."""
        return tuple(u for u, s in self.stats.items() if s.cost > 0)

    # ---- weapons development ----------------------------------------------------------------

    research_cost = 5
    """IPCs per research die (Revised)."""

    technologies: tuple[str, ...] = (
        "jet-power",
        "super-submarines",
        "long-range-aircraft",
        "combined-bombardment",
        "heavy-bombers",
        "rockets",
    )
    """The developments a power may research here (Revised's six)."""

    def bomber_dice(self, unit: str, techs: Sequence[str]) -> int:
        """Dice a strategic bomber rolls when attacking or raiding, of which the best one counts:
        two with heavy bombers (LHTR 1.3), else one."""
        return 2 if self.stats[unit].strategic_bomber and "heavy-bombers" in techs else 1

    def raid_bonus(self, techs: Sequence[str]) -> int:
        """Added to a raiding bomber's best die: 1 with heavy bombers (LHTR 1.3)."""
        return 1 if "heavy-bombers" in techs else 0

    def breakthrough(self, face: int) -> bool:
        """A research die succeeds on a 6 (Revised)."""
        return face == 6

    def movement(self, unit: str, techs: Sequence[str]) -> int:
        """Movement; long-range aircraft give fighters and bombers 2 more (Revised)."""
        stats = self.stats[unit]
        bonus = 2 if stats.domain == "air" and "long-range-aircraft" in techs else 0
        return stats.movement + bonus

    def defence(self, unit: str, techs: Sequence[str]) -> int:
        """Defence; jet fighters defend on 5 (Revised), super submarines on one more (LHTR 1.3)."""
        stats = self.stats[unit]
        if stats.carrier_cost and stats.domain == "air" and "jet-power" in techs:
            return 5
        return stats.defence + (1 if stats.sub and "super-submarines" in techs else 0)

    def bombards(self, unit: str, techs: Sequence[str]) -> bool:
        """Battleships bombard; with combined bombardment destroyers too (Revised)."""
        stats = self.stats[unit]
        return stats.bombard or (stats.destroyer and "combined-bombardment" in techs)

    # ---- combat -----------------------------------------------------------------------------

    def battle_machine(self) -> BattleMachine | None:
        """The step machine that fights a battle opened with ``fight WHERE``: None for the base
        battle of :mod:`.combat` (Revised); the Historical Edition returns its own."""
        return None

    def aa_hit(self) -> int:
        """An AA gun hits an attacking aircraft on this roll or lower (Revised: a 1)."""
        return 1

    def attack_value(self, unit: str, supported: bool, techs: Sequence[str] = ()) -> int:
        """A unit's attack; an infantry paired with an artillery attacks one higher (Revised);
        super submarines attack one higher (Revised)."""
        stats = self.stats[unit]
        value = stats.attack + (1 if stats.sub and "super-submarines" in techs else 0)
        return value + 1 if supported and stats.supportable else value

    def bombing_cap(self, territory_ipc: int) -> int:
        """Most IPCs that strategic bombing may cost in one territory per turn: LHTR 1.3 caps it at
        the territory's IPC value (Revised itself capped it at the owner's whole income)."""
        return territory_ipc

    def repairs_at_end_of_turn(self) -> bool:
        """Damaged battleships are repaired at the end of their owner's turn (module option)."""
        return self._properties.get("Units Repair Hits End Turn") is not False


def revised_profile(module: MapModule) -> Profile:
    """The Revised + LHTR 1.3 profile over ``module``."""
    return Profile(module)
