"""What one rule set of the Revised family decides differently: a small profile with hooks.

The engine (:mod:`.engine`) implements the sequence of play and combat once. Everything that one
rule set reads differently from another lives here, as data or as a method a variant overrides:
the unit numbers it reads from the module, the victory condition, income and plunder, the
production limit of a factory. The Historical Edition variant is meant to subclass
:class:`Profile` and override hooks rather than copy the engine.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Protocol

from grandstrategy.axis_allies.module.schema import Domain
from grandstrategy.axis_allies.module.world import MapModule
from grandstrategy.core.graph import bfs_distances

if TYPE_CHECKING:  # the engine imports this module; the hooks only name its classes
    from grandstrategy.axis_allies.game.board import Board
    from grandstrategy.axis_allies.game.engine import AAGame


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

    # ---- hidden information --------------------------------------------------------------

    def private_decision(self, game: AAGame) -> bool:
        """Whether the open decision is secret (only its seat sees the answer): never in
        Revised, where everything is open; a variant with written-down plans overrides it."""
        return False

    def view(self, game: AAGame, seat: str | None, data: dict[str, Any]) -> dict[str, Any]:
        """What ``seat`` may see of the state data ``data`` (a copy, free to change): all of it
        in Revised; a variant with secrets takes them out for the other seats."""
        return data

    # ---- combat -----------------------------------------------------------------------------

    def battle_machine(self) -> BattleMachine | None:
        """The step machine that fights a battle opened with ``fight WHERE``: None for the base
        battle of :mod:`.combat` (Revised); the Historical Edition returns its own."""
        return None

    def battle_policy(self, game: AAGame, seat: str, options: list[str]) -> str | None:
        """The heuristic bot's choice in an open battle of the variant's own machine; None: the
        base policy's (:mod:`.policy`), which reads the base battle's options."""
        return None

    def bot_choice(self, game: AAGame, seat: str, options: list[str]) -> str | None:
        """The heuristic bot's choice at a decision outside a battle that the variant adds or
        plays its own way (lend-lease, diplomacy, ...); None: the base policy's (:mod:`.policy`)."""
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

    def fighters_await_new_carriers(self) -> bool:
        """LHTR 1.3: a fighter cannot move onto a carrier as it is placed; it flies, in a movement
        phase, to the sea zone where a carrier bought this turn will be placed and waits there
        (lost at the end of mobilize if no carrier comes). The base engine's end of mobilize sinks
        the fighters left waiting, so a variant with its own end of phase answers False unless it
        does the same."""
        return type(self).end_phase is Profile.end_phase

    def repairs_at_end_of_turn(self) -> bool:
        """Damaged battleships are repaired at the end of their owner's turn (module option)."""
        return self._properties.get("Units Repair Hits End Turn") is not False

    # ---- sequence-of-play hooks (a variant's turn structure; the base answers "as Revised") ----

    phases: tuple[str, ...] = (
        "bid",
        "research",
        "purchase",
        "combat-move",
        "combat",
        "noncombat-move",
        "mobilize",
    )
    """Every phase name a position may rest in (the invariant check rejects any other)."""

    dice_phases: tuple[str, ...] = ("combat", "research")
    """Phases in which a dice step (``d["battle"]``) may be open."""

    holding_phases: tuple[str, ...] = ("purchase", "combat-move", "combat", "noncombat-move", "mobilize")
    """Phases in which units may be bought and not yet placed."""

    def setup_state(self, game: AAGame) -> None:
        """Called once by ``new_game`` after the setup is on the board and the first turn began:
        a variant adds its own state and picks who moves first. Revised: nothing to do."""

    def options(self, game: AAGame) -> list[str] | None:
        """The options of the decision now open, when the variant decides them; None: the base
        engine's options (Revised)."""
        return None

    def choose(self, game: AAGame, option: str) -> bool:
        """Carry out ``option`` when it is the variant's own; False: the base engine does it."""
        return False

    def end_phase(self, game: AAGame) -> bool:
        """End the phase now on when the variant orders its phases; False: Revised's order."""
        return False

    def settle_step(self, game: AAGame) -> bool | None:
        """One automatic step of the variant: True after changing the state (settle again),
        False when a decision is open (stop), None to let the base engine settle."""
        return None

    def after_dice(self, game: AAGame, battle: dict[str, Any]) -> bool:
        """Finish a dice step the variant opened (``d["battle"]`` of its own kind); False: the
        base engine's research or battle goes on."""
        return False

    def dice_label(self, game: AAGame, battle: dict[str, Any], die: Sequence[Any]) -> str | None:
        """The label of a variant's die (None: the base engine's label)."""
        return None

    def battle_seat(self, game: AAGame, battle: dict[str, Any]) -> str | None:
        """Who decides in an open battle of the variant's own (its combat's step machine); None:
        the base rule (the defence chooses its casualties and submerging, else the power on move)."""
        return None

    def book_raid_damage(self, game: Board, where: str, owner: str, damage: int) -> bool:
        """Book a raid's or rocket's ``damage`` to ``owner``'s territory the variant's way; False:
        the base rule (LHTR 1.3: IPCs from the bank, up to the territory's value a turn)."""
        return False

    def rocket_launchers(self, game: Board, power: str) -> dict[str, int] | None:
        """Where ``power``'s rockets start and how many each place may fire a turn; None: the
        base rule (Revised: one from each land territory holding its unmoved AA guns)."""
        return None

    def liberates(self, captor: str, original: str) -> bool:
        """Whether ``captor`` taking back a friend's territory hands it to its original owner
        (Revised: yes, while that owner holds its capital)."""
        return True

    def victory_points(self, territory: str) -> int:
        """What a territory counts toward its holder's victory total: 1 for a Revised victory city."""
        return 1 if self.module.territories[territory].victory_city else 0

    def problems(self, game: AAGame) -> list[str]:
        """Broken invariants of the variant's own state (the base check adds them)."""
        return []

    def waiting_battles(self, game: AAGame) -> Iterable[str]:
        """Places where battles wait outside the power on move's own list (a team turn's
        members who moved first); the invariant check allows both sides there."""
        return ()

    def aside_units(self, game: AAGame) -> Iterable[tuple[str, str, int]]:
        """``(power, type, count)`` of units held off the board by the variant (bought for a
        later turn, a team member's purchases), counted by the conservation check."""
        return ()

    def air_passable(self, game: Board, territory: str) -> bool:
        """Whether the power on move's aircraft may fly over ``territory`` (Revised: anything
        but the impassable neutrals)."""
        return not self.module.territories[territory].impassable

    def land_passable(self, game: Board, territory: str) -> bool:
        """Whether the power on move's land units may enter the land ``territory`` (Revised:
        anything but the impassable neutrals)."""
        return not self.module.territories[territory].impassable

    def ownable(self, game: Board, territory: str) -> bool:
        """Whether the land ``territory`` may have an owner (Revised: anything but the impassable
        neutrals; a variant may let neutrals join a side)."""
        return not self.module.territories[territory].impassable

    def subs_pass_destroyers(self, game: Board) -> bool:
        """Whether the power on move's submarines may move on through a sea zone with an enemy
        destroyer (Revised: no, a destroyer stops them)."""
        return False

    def flight_range(self, game: Board, unit: str, moves: int, *, combat: bool) -> int:
        """How far the power on move's aircraft of type ``unit`` with ``moves`` left may fly in
        one flight: into battle or on a raid (``combat``), else to land. Revised: their moves."""
        return moves

    def flight_reach(
        self, game: Board, unit: str, origin: str, moves: int, *, combat: bool
    ) -> dict[str, int]:
        """Where such aircraft may fly from ``origin`` in one flight, with the distance of each
        place: everything within :meth:`flight_range` over places they may fly over (a variant
        may leave some out)."""

        def neighbours(t: str) -> list[str]:
            return [n for n in self.module.territories[t].neighbours if self.air_passable(game, n)]

        return bfs_distances([origin], neighbours, self.flight_range(game, unit, moves, combat=combat))

    def moves_after_flight(self, game: Board, unit: str, moves: int, distance: int, *, combat: bool) -> int:
        """The moves such aircraft keep after flying ``distance``: after a flight into battle or
        on a raid (``combat``), what they may still fly to land. Revised: the rest of their moves."""
        return moves - distance

    def may_enter(self, game: Board, unit: str, origin: str, target: str, *, combat: bool) -> bool:
        """Whether the power on move may move a ``unit`` from ``origin`` to ``target`` beyond the
        base game's rules (a variant's map or alliance limits). Revised: always."""
        return True

    def entry_room(self, game: Board, target: str) -> int | None:
        """How many more units the power on move may bring into ``target`` (a variant's limit on
        a territory), ``None`` for no limit. Revised: none."""
        return None

    def carrier_cost(self, game: Board, unit: str) -> int:
        """The carrier room one ``unit`` takes, 0 when it may not land on carriers in ``game``
        (a variant may keep some aircraft off them). Revised: the unit's own carrier cost."""
        return self.stats[unit].carrier_cost


def revised_profile(module: MapModule) -> Profile:
    """The Revised + LHTR 1.3 profile over ``module``."""
    return Profile(module)
