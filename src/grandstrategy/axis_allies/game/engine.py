"""Axis & Allies Revised (LHTR 1.3) on the kernel: the state, its decisions and its dice.

The state is plain JSON data (:attr:`AAGame.d`): who owns each territory, the units in every
territory and sea zone, each power's IPC bank, the round, the power on move and its phase, the
open battle. Units are counted in stacks keyed ``power:type:moves:damage`` (moves left this turn,
hits taken), so a state hashes the same however it was reached.

Every choice is a decision of the power on move (``germans: buy infantry``, ``germans: move 1
infantry germany -> poland``), every die a chance node of its own (one six-sided die with its
label). See docs/aa-game.md for the decision structure and what is not implemented.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from grandstrategy.axis_allies.game.profile import Profile
from grandstrategy.core.actions import Action
from grandstrategy.core.canonical import JSONObject
from grandstrategy.core.chance import ChanceNode
from grandstrategy.core.errors import NotationError
from grandstrategy.core.graph import bfs_distances
from grandstrategy.core.ids import CHANCE, TERMINAL, Seat, ToAct
from grandstrategy.core.state import GameState

PHASES = ("research", "purchase", "combat-move", "combat", "noncombat-move", "mobilize")
"""A power's turn (Revised sequence of play: develop weapons, purchase, combat move, conduct combat,
non-combat move, mobilize; collect income and the end of the turn run without a decision)."""

_DIE = ChanceNode.die("die")


@dataclass(frozen=True, slots=True)
class Choose(Action):
    """A power picks one of the options it was offered: ``germans: buy infantry``."""

    power: str
    option: str

    def notation(self) -> str:
        return f"{self.power}: {self.option}"


def parse_choice(text: str) -> Choose:
    """Read ``power: option``.

    :raises NotationError: quoting the text, when it has no ``power:`` prefix or no option.
    """
    if not isinstance(text, str) or len(text) > 200:
        raise NotationError(f"cannot read {str(text)[:60]!r}: an action is at most 200 characters")
    power, colon, option = text.partition(":")
    if not colon or not power.strip() or not option.strip() or "\n" in text:
        raise NotationError(f"cannot read {text!r}: write a choice as 'power: option', e.g. 'germans: done'")
    return Choose(power.strip().lower(), " ".join(option.split()))


def key(power: str, unit: str, moves: int, damage: int = 0) -> str:
    """The stack key of units of one power and type with ``moves`` left and ``damage`` taken."""
    return f"{power}:{unit}:{moves}:{damage}"


def split(stack: str) -> tuple[str, str, int, int]:
    """``(power, type, moves, damage)`` of a stack key."""
    power, unit, moves, damage = stack.split(":")
    return power, unit, int(moves), int(damage)


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


class AAGame(GameState):
    """One position of a game: the profile (rules and module) and the state data."""

    def __init__(self, profile: Profile, data: dict[str, Any]) -> None:
        self.profile = profile
        self.module = profile.module
        self.stats = profile.stats
        self.d = data
        self.order = [p.id for p in self.module.turn_order()]

    # ---- facts -------------------------------------------------------------------------------

    @property
    def power(self) -> str:
        """The power whose turn it is."""
        turn: int = self.d["turn"]
        return self.order[turn]

    def alliance(self, power: str) -> str:
        return self.module.powers[power].alliance

    def friendly(self, power: str, other: str | None) -> bool:
        return other is not None and self.alliance(power) == self.alliance(other)

    def is_sea(self, where: str) -> bool:
        return self.module.is_sea(where)

    def units(self, where: str) -> dict[str, int]:
        """The stacks at ``where`` (read only: change them through :meth:`add`)."""
        here: dict[str, int] = self.d["units"].get(where, {})
        return here

    def add(self, where: str, stack: str, count: int = 1) -> None:
        """Add ``count`` units (negative: remove) to a stack; empty stacks and places vanish."""
        here = self.d["units"].setdefault(where, {})
        here[stack] = here.get(stack, 0) + count
        if here[stack] <= 0:
            del here[stack]
        if not here:
            del self.d["units"][where]

    def stacks(self, where: str) -> list[tuple[str, int]]:
        return sorted(self.d["units"].get(where, {}).items())

    def techs(self, power: str) -> list[str]:
        techs: list[str] = self.d["techs"].get(power, [])
        return techs

    def movement(self, power: str, unit: str) -> int:
        return self.profile.movement(unit, self.techs(power))

    def fights(self, unit: str, where: str) -> bool:
        """Whether a unit there rolls and can be hit: not a factory or AA gun, not cargo at sea."""
        stats = self.stats[unit]
        return stats.combat and not (stats.domain == "land" and self.is_sea(where))

    def enemy_units(self, power: str, where: str, *, combat_only: bool = False) -> int:
        total = 0
        for stack, n in self.d["units"].get(where, {}).items():
            owner, unit, _, _ = split(stack)
            if not self.friendly(power, owner) and (not combat_only or self.fights(unit, where)):
                total += n
        return total

    def cargo_room(self, power: str, zone: str) -> int:
        """Free transport capacity of ``power``'s transports in ``zone`` (Revised: a transport
        carries 5 units of transport cost; infantry cost 2, other land units 3)."""
        room = 0
        for stack, n in self.d["units"].get(zone, {}).items():
            owner, unit, _, _ = split(stack)
            if owner == power:
                stats = self.stats[unit]
                room += n * stats.transport_capacity if stats.domain == "sea" else 0
                room -= n * stats.transport_cost if stats.domain == "land" else 0
        return room

    def owner(self, where: str) -> str | None:
        owner: str | None = self.d["owner"].get(where)
        return owner

    def hostile_land(self, power: str, where: str) -> bool:
        owner = self.owner(where)
        return owner is not None and not self.friendly(power, owner)

    def vcs(self, alliance: str) -> int:
        return sum(
            1
            for t in self.module.territories.values()
            if t.victory_city
            and self.owner(t.id) is not None
            and self.alliance(self.owner(t.id) or "") == alliance
        )

    def capital_held(self, power: str) -> bool:
        capital = self.module.capital_of(power)
        return capital is None or self.friendly(power, self.owner(capital.id))

    def log(self, text: str) -> None:
        self.d["log"].append(f"R{self.d['round']} {self.power} {self.d['phase']}: {text}")
        del self.d["log"][:-40]

    # ---- GameState ---------------------------------------------------------------------------

    def seats(self) -> tuple[Seat, ...]:
        return tuple(Seat(p) for p in self.order)

    def to_act(self) -> ToAct:
        if self.d["result"] is not None:
            return TERMINAL
        battle = self.d["battle"]
        if battle is not None:
            if battle["dice"]:
                return CHANCE
            if battle["stage"] in ("defender-casualties", "defender-submerge"):
                return Seat(battle["chooser"])
        return Seat(self.power)

    def phase(self) -> str:
        battle = self.d["battle"]
        where = f" at {battle['where']} ({battle['stage']})" if battle else ""
        return f"round {self.d['round']} {self.power} {self.d['phase']}{where}"

    def legal_actions(self) -> Sequence[Action]:
        who = self.to_act()
        if not isinstance(who, str):
            return []
        return [Choose(who, option) for option in self.options()]

    def apply(self, action: Action) -> None:
        assert isinstance(action, Choose)
        self.choose(action.option)
        self.settle()

    def chance_node(self) -> ChanceNode:
        battle = self.d["battle"]
        assert battle is not None and battle["dice"]
        side, unit, value, *_ = battle["dice"][0]
        where = battle["where"]
        if side == "aa":
            label = f"{where}: AA gun fires at a {battle['attacker']} {unit}, hits on {value} or less"
        elif side == "bomb":
            label = f"{where}: {battle['attacker']} {unit} bombs the factory (damage = the die)"
        elif side == "research":
            label = f"{battle['attacker']} researches {unit}: a 6 is a breakthrough"
        else:
            owner = "defence" if side.startswith("defender") else battle["attacker"]
            label = f"{where}: {owner} {unit} hits on {value} or less"
        return ChanceNode("die", label, _DIE.outcomes)

    def apply_chance(self, outcome: str) -> None:
        battle = self.d["battle"]
        side, unit, value, *group = battle["dice"].pop(0)
        if group:  # dice of one unit of which only the best counts (LHTR heavy bombers)
            best = battle.setdefault("best", {})
            if side == "bomb":
                best[group[0]] = max(best.get(group[0], 0), int(outcome))
            elif int(outcome) <= value and group[0] not in best:
                best[group[0]] = 1
                battle["hits"][side] = battle["hits"].get(side, 0) + 1
        elif side == "bomb":
            battle["damage"] = battle.get("damage", 0) + int(outcome)
        elif side == "research":
            if self.profile.breakthrough(int(outcome)):
                battle["hits"]["research"] = battle["hits"].get("research", 0) + 1
        elif int(outcome) <= value:
            battle["hits"][side] = battle["hits"].get(side, 0) + 1
            if side == "aa":
                battle["aa_hits"][unit] = battle["aa_hits"].get(unit, 0) + 1
        if not battle["dice"]:
            self.after_dice()
            self.settle()

    def returns(self) -> Mapping[Seat, float]:
        result = self.d["result"]
        winner = result.get("winner") if result else None
        if winner is None:
            return {s: 0.0 for s in self.seats()}
        return {Seat(p): 1.0 if self.alliance(p) == winner else -1.0 for p in self.order}

    def clone(self) -> AAGame:
        return AAGame(self.profile, _copy(self.d))

    def to_json(self) -> JSONObject:
        return _copy(self.d)  # type: ignore[no-any-return]

    def view(self, seat: Seat | None) -> JSONObject:
        """Everything in Axis & Allies is open information: every seat sees the whole state."""
        return self.to_json()

    # ---- what the play layer asks (grandstrategy.play.games) ---------------------------------

    def play_groups(self) -> dict[str, list[str]]:
        """The alliances, each with its powers in turn order (a SEATS text may name them)."""
        groups: dict[str, list[str]] = {}
        for power in self.order:
            groups.setdefault(self.alliance(power), []).append(power)
        return groups

    def play_problems(self) -> list[str]:
        """Broken invariants of the position (see :mod:`.invariants`)."""
        from grandstrategy.axis_allies.game.invariants import problems

        return problems(self)

    def play_outcome(self) -> tuple[str | None, dict[str, int], int, str | None]:
        """``(winning alliance, victory cities per alliance, rounds, how it ended)``."""
        result = self.d["result"]
        vcs = {alliance: self.vcs(alliance) for alliance in self.play_groups()}
        if result is None:
            return None, vcs, self.d["round"], None
        return result["winner"], vcs, result["round"], result["how"]

    def play_summary(self) -> dict[str, Any]:
        """The terminal's heading: round, power and phase, banks and victory cities, recent events."""
        banks = ", ".join(f"{p} {self.d['bank'][p]}" for p in self.order)
        vcs = ", ".join(f"{a} {n}" for a, n in self.play_outcome()[1].items())
        result = self.d["result"]
        return {
            "title": self.profile.title,
            "turn": str(self.d["round"]),
            "phase": f"{self.power} {self.d['phase']}",
            "war": f"IPCs {banks}; victory cities {vcs}",
            "events": list(self.d["log"]),
            "result": f"{result['winner'] or 'nobody'} wins ({result['how']})" if result else None,
        }

    def play_log(self) -> list[str]:
        """The recent public events, oldest first."""
        return list(self.d["log"])

    def play_value(self, seat: str) -> float:
        """How good the position looks for ``seat``'s alliance, from open information: victory
        cities weigh most (they decide the game), then income, then the IPC value of the units
        on the board and in the banks; a finished game is worth +-40."""
        mine = self.alliance(seat)
        score = {alliance: 0.0 for alliance in self.play_groups()}
        for t in self.module.territories.values():
            owner = self.owner(t.id) if t.type.value == "land" else None
            if owner is not None:
                score[self.alliance(owner)] += 0.3 * (t.ipc or 0) + (2.0 if t.victory_city else 0.0)
        for here in self.d["units"].values():
            for stack, n in here.items():
                owner, unit, _, _ = split(stack)
                score[self.alliance(owner)] += 0.05 * n * self.stats[unit].cost
        for power, bank in self.d["bank"].items():
            score[self.alliance(power)] += 0.04 * bank
        value = score[mine] - sum(v for a, v in score.items() if a != mine)
        result = self.d["result"]
        if result is not None and result["winner"] is not None:
            value += 40.0 if result["winner"] == mine else -40.0
        return value

    # ---- the options of the open decision ----------------------------------------------------

    def options(self) -> list[str]:
        """The legal options (notation after ``power:``) of the decision now open."""
        battle = self.d["battle"]
        phase = self.d["phase"]
        if battle is not None:
            if battle["stage"] in ("defender-casualties", "attacker-casualties"):
                return self.casualty_options(battle)
            if battle["stage"] == "retreat":
                return ["press attack", *self.withdrawals(battle)]
            if battle["stage"] == "defender-submerge":
                return ["keep submarines in the battle", "submerge submarines"]
        if phase == "research":
            return self.research_options()
        if phase == "purchase":
            left = self.d["bank"][self.power]
            return [
                *(f"buy {u}" for u in self.profile.purchasable() if self.profile.unit_cost(u) <= left),
                "done",
            ]
        if phase in ("combat-move", "noncombat-move"):
            combat = phase == "combat-move"
            raids = self.raid_options() if combat else []
            return [*self.move_options(combat=combat), *raids, "done"]
        if phase == "combat":
            fights = [
                *(f"bomb {t}" for t in sorted(self.d["raids"])),
                *(f"fight {t}" for t in sorted(self.d["battles"])),
            ]
            return [*fights, *self.rocket_options(), *([] if fights else ["done"])]
        if phase == "mobilize":
            return self.place_options()
        return ["done"]

    def choose(self, option: str) -> None:
        """Carry out one legal option (trusting: it is not checked)."""
        words = option.split()
        phase = self.d["phase"]
        battle = self.d["battle"]
        if battle is not None:
            if words[0] == "lose" or words[0] == "damage":
                self.take_casualty(battle, words)
            elif option == "press attack":
                self.start_round(battle)
            elif battle["stage"] == "defender-submerge":
                self.defence_submerges(battle, option == "submerge submarines")
            elif option == "submerge submarines":
                self.submerge(battle)
            elif option == "break off":
                self.log(f"aircraft break off the attack on {battle['where']}")
                self.finish_battle(battle)
            else:
                self.retreat(battle, words[-1])
            return
        if option == "done":
            self.end_phase()
        elif words[0] == "research":
            self.d["research"] = {"tech": words[1], "dice": 0}
        elif option == "buy research die":
            self.d["research"]["dice"] += 1
            self.d["bank"][self.power] -= self.profile.research_cost
        elif option == "roll research dice":
            research = self.d["research"]
            self.d["battle"] = {
                "where": self.capital_name(),
                "attacker": self.power,
                "research": research["tech"],
                "stage": "research",
                "dice": [["research", research["tech"], 6]] * research["dice"],
                "hits": {},
                "aa_hits": {},
            }
            self.d["research"] = None
        elif words[0] == "buy":
            self.d["purchased"][words[1]] = self.d["purchased"].get(words[1], 0) + 1
            self.d["bank"][self.power] -= self.profile.unit_cost(words[1])
        elif words[0] == "move":
            # move N TYPE FROM -> TO
            self.move(int(words[1]), words[2], words[3], words[5], combat=phase == "combat-move")
        elif words[0] == "fight":
            self.open_battle(words[1])
        elif words[0] == "rocket":
            self.fire_rocket(words[1], words[3])
        elif words[0] == "bomb":
            self.open_raid(words[1])
        elif words[0] == "raid":
            self.send_raid(int(words[1]), words[2], words[3], words[5])
        elif words[0] == "place":
            self.place(words[1], words[2], words[3] if len(words) > 3 else None)

    # ---- the flow of a turn ------------------------------------------------------------------

    def settle(self) -> None:
        """Run the steps that need nobody: empty phases, the end of a turn, the victory check."""
        for _ in range(1000):
            if self.d["result"] is not None or self.d["battle"] is not None:
                return
            phase = self.d["phase"]
            if (
                phase == "combat"
                and not self.d["battles"]
                and not self.d["raids"]
                and not self.rocket_options()
            ):
                self.end_phase()
                continue
            if phase == "mobilize" and not self.place_options():
                self.end_phase()
                continue
            return
        raise RuntimeError("the turn machine did not stop")

    def end_phase(self) -> None:
        phase = self.d["phase"]
        if phase == "combat-move":
            self.freeze_moved()
        if phase == "noncombat-move":
            self.land_aircraft()
        if phase == "mobilize":
            lost = sum(self.d["purchased"].values())
            if lost:
                self.log(f"{lost} purchased unit(s) could not be placed and are lost")
            self.d["purchased"] = {}
            self.end_turn()
            return
        self.d["phase"] = PHASES[PHASES.index(phase) + 1]

    def start_turn(self) -> None:
        """Reset the new power's moves and record the factories it holds at the start (mobilize)."""
        power = self.power
        self.d["phase"] = "research"
        self.d["research"] = None
        self.d["new_techs"] = []
        self.d["conquered"] = []
        self.d["placed"] = {}
        self.d["bombed"] = {}
        self.d["bombard"] = {}
        self.d["sea_fought"] = []
        self.d["rockets_fired"] = []
        self.d["start_factories"] = sorted(
            where
            for where, here in self.d["units"].items()
            if self.owner(where) == power and any(self.stats[split(s)[1]].factory for s in here)
        )

    def end_turn(self) -> None:
        """Collect income (Revised: none while the capital is held by the enemy), repair, next power."""
        power = self.power
        owned = sum(t.ipc or 0 for t in self.module.territories.values() if self.owner(t.id) == power)
        income = self.profile.income(owned, self.capital_held(power))
        self.d["bank"][power] += income
        self.log(f"collects {income} IPCs")
        if self.d["new_techs"]:  # LHTR 1.3: developments take effect at the end of the turn
            self.d["techs"][power] = sorted({*self.techs(power), *self.d["new_techs"]})
            self.d["new_techs"] = []
        self.reset_units(power)
        if self.d["turn"] == len(self.order) - 1:
            self.end_round()
            if self.d["result"] is not None:
                return
            self.d["turn"] = 0
            self.d["round"] += 1
        else:
            self.d["turn"] += 1
        self.start_turn()

    def reset_units(self, power: str) -> None:
        """Full moves again, and (module option) damaged battleships repaired."""
        repair = self.profile.repairs_at_end_of_turn()
        for where in list(self.d["units"]):
            for stack, n in list(self.units(where).items()):
                owner, unit, _, damage = split(stack)
                if owner != power:
                    continue
                fresh = key(owner, unit, self.movement(owner, unit), 0 if repair else damage)
                if fresh != stack:
                    self.add(where, stack, -n)
                    self.add(where, fresh, n)

    def end_round(self) -> None:
        """The victory check at the end of a round (Revised: an alliance holding its VC target)."""
        for alliance in sorted({self.alliance(p) for p in self.order}):
            held = self.vcs(alliance)
            if held >= self.profile.victory_cities_needed(alliance):
                self.d["result"] = {
                    "winner": alliance,
                    "how": f"{held} victory cities",
                    "round": self.d["round"],
                }
                return
        limit = self.d["max_rounds"]
        if limit and self.d["round"] >= limit:
            self.d["result"] = {"winner": None, "how": f"round limit {limit}", "round": self.d["round"]}

    # ---- purchase and mobilize ---------------------------------------------------------------

    # ---- weapons development (Revised; LHTR 1.3: a breakthrough takes effect at the end of the turn)

    def research_options(self) -> list[str]:
        """Pick one development to research, buy dice for it (5 IPCs each), roll them; or skip."""
        power, research = self.power, self.d["research"]
        can_buy = self.d["bank"][power] >= self.profile.research_cost
        if research is None:
            owned = set(self.techs(power)) | set(self.d["new_techs"])
            techs = [t for t in self.profile.technologies if t not in owned] if can_buy else []
            return [*(f"research {t}" for t in techs), "done"]
        options = ["buy research die"] if can_buy else []
        return [*options, "roll research dice"] if research["dice"] else options

    def capital_name(self) -> str:
        capital = self.module.capital_of(self.power)
        return capital.id if capital is not None else self.power

    def after_research(self, battle: dict[str, Any]) -> None:
        """Any 6 is a breakthrough; the development is the power's from the end of this turn."""
        self.d["battle"] = None
        if battle["hits"].get("research", 0):
            self.d["new_techs"].append(battle["research"])
            self.log(f"breakthrough: {battle['research']}")
        else:
            self.log(f"research into {battle['research']} fails")
        self.d["phase"] = "purchase"

    def place_options(self) -> list[str]:
        power = self.power
        result: list[str] = []
        purchased = self.d["purchased"]
        for factory in self.d["start_factories"]:
            if self.owner(factory) != power:
                continue
            ipc = self.module.territories[factory].ipc or 0
            if self.d["placed"].get(factory, 0) >= self.profile.production_limit(ipc):
                continue
            for unit in sorted(purchased):
                stats = self.stats[unit]
                if stats.factory:
                    continue
                if stats.domain == "sea":
                    for zone in self.module.sea_neighbours(factory):
                        if not self.enemy_units(power, zone, combat_only=True):
                            result.append(f"place {unit} {factory} {zone}")
                else:
                    if stats.carrier_cost:  # LHTR: new fighters may go onto carriers next to the factory
                        for zone in self.module.sea_neighbours(factory):
                            if self.carrier_room(zone) >= stats.carrier_cost:
                                result.append(f"place {unit} {factory} {zone}")
                    result.append(f"place {unit} {factory}")
        if any(self.stats[u].factory for u in purchased):
            for t in self.module.territories.values():
                if (
                    t.type.value == "land"
                    and (t.ipc or 0) > 0
                    and self.owner(t.id) == power
                    and t.id not in self.d["conquered"]
                    and not any(self.stats[split(s)[1]].factory for s in self.d["units"].get(t.id, {}))
                ):
                    result.extend(f"place {u} {t.id}" for u in sorted(purchased) if self.stats[u].factory)
        return result

    def place(self, unit: str, factory: str, zone: str | None) -> None:
        self.d["purchased"][unit] -= 1
        if not self.d["purchased"][unit]:
            del self.d["purchased"][unit]
        self.add(zone or factory, key(self.power, unit, self.movement(self.power, unit)))
        if not self.stats[unit].factory:
            self.d["placed"][factory] = self.d["placed"].get(factory, 0) + 1

    # ---- movement ----------------------------------------------------------------------------

    def move_options(self, *, combat: bool) -> list[str]:
        """``move N TYPE FROM -> TO``: one unit, or every unit of the type there that can make
        that move (land and sea units one step at a time, aircraft a whole flight)."""
        power = self.power
        result: list[str] = []
        for where in sorted(self.d["units"]):
            reach: dict[tuple[str, str], int] = {}  # (type, target) -> units able to go there
            for stack, n in self.stacks(where):
                owner, unit, moves, damage = split(stack)
                if owner != power or moves <= 0 or damage:
                    continue
                stats = self.stats[unit]
                if combat and not stats.combat:
                    continue  # AA guns move only in non-combat move (Revised)
                if stats.domain == "air":
                    targets = self.air_targets(where, moves, combat=combat, carrier=stats.carrier_cost > 0)
                elif stats.domain == "land":
                    targets = self.land_targets(where, unit, combat=combat)
                elif stats.domain == "sea":
                    targets = self.sea_targets(where, combat=combat)
                else:
                    continue
                for target in targets:
                    reach[unit, target] = reach.get((unit, target), 0) + n
            for (unit, target), n in sorted(reach.items()):
                stats = self.stats[unit]
                counts = [1, n] if n > 1 else [1]
                if stats.transport_capacity:
                    counts = [c for c in counts if self.carry_plan(where, c) is not None]
                if stats.domain == "land" and self.is_sea(target):  # boarding: as many as fit
                    counts = [c for c in counts if c * stats.transport_cost <= self.cargo_room(power, target)]
                result.extend(f"move {c} {unit} {where} -> {target}" for c in counts)
        return result

    def land_targets(self, where: str, unit: str, *, combat: bool) -> list[str]:
        power = self.power
        if where in self.d["battles"]:
            return []
        result = []
        cost = self.stats[unit].transport_cost
        for other in self.module.territories[where].neighbours:
            t = self.module.territories[other]
            if t.type.value == "sea" and not self.is_sea(where):
                # Loading onto the power's own transports, in a sea zone free of enemy warships.
                free = other not in self.d["battles"] and not self.enemy_units(power, other, combat_only=True)
                if free and cost and self.cargo_room(power, other) >= cost:
                    result.append(other)
                continue
            if t.type.value != "land" or t.impassable:
                continue
            if self.hostile_land(power, other):
                if combat:
                    result.append(other)
            elif combat or not self.enemy_units(power, other, combat_only=True):
                result.append(other)
        return result

    def sea_targets(self, where: str, *, combat: bool) -> list[str]:
        power = self.power
        if where in self.d["battles"]:
            return []
        result = []
        for other in self.module.sea_neighbours(where):
            if not self.canal_open(where, other):
                continue
            if self.enemy_units(power, other, combat_only=True) and not combat:
                continue
            result.append(other)
        return result

    def canal_open(self, a: str, b: str) -> bool:
        """Ships pass between a canal's sea zones only if their side holds its land (module canals)."""
        for canal in self.module.canals.values():
            crosses = a in canal.sea_zones and b in canal.sea_zones
            if crosses and not all(self.friendly(self.power, self.owner(t)) for t in canal.controlled_by):
                return False
        return True

    def air_targets(
        self, where: str, moves: int, *, combat: bool, anywhere: bool = False, carrier: bool = False
    ) -> list[str]:
        """Air moves a whole path at once: anywhere within its moves over passable territories
        (aircraft fly over anything but the impassable neutrals). Into battle or on a raid only
        where the moves left would still reach friendly land (or, for ``carrier`` aircraft, a
        carrier with room) as things stand now (Revised: no planned suicide flights)."""
        power = self.power

        def neighbours(t: str) -> list[str]:
            return [
                n for n in self.module.territories[t].neighbours if not self.module.territories[n].impassable
            ]

        reach = bfs_distances([where], neighbours, moves)
        home: dict[str, int] = {}
        if combat or anywhere:  # a flight into battle must leave the moves to reach a landing place
            spots = [t for t in self.module.territories if not self.is_sea(t) and self.landing_ok(t)]
            if carrier:
                spots += [t for t in self.d["units"] if self.is_sea(t) and self.landing_ok(t)]
            home = bfs_distances(spots, neighbours, moves)
        result = []
        for target, distance in sorted(reach.items()):
            if distance == 0 or distance > moves:
                continue
            if (combat or anywhere) and home.get(target, moves + 1) > moves - distance:
                continue
            if anywhere:
                result.append(target)
            elif combat:
                if self.enemy_units(power, target, combat_only=True) or (
                    target in self.d["battles"] and self.enemy_units(power, target)
                ):
                    result.append(target)
            elif self.landing_ok(target):
                result.append(target)
        return result

    def landing_ok(self, target: str) -> bool:
        """Aircraft may end a turn on friendly land held since the turn began, or at sea where a
        friendly carrier has room (Revised: not in a territory captured this turn)."""
        power = self.power
        if self.is_sea(target):
            return self.carrier_room(target) > 0
        return self.friendly(power, self.owner(target)) and target not in self.d["conquered"]

    def carrier_room(self, zone: str) -> int:
        power = self.power
        room = 0
        for stack, n in self.d["units"].get(zone, {}).items():
            owner, unit, _, _ = split(stack)
            if self.friendly(power, owner):
                room += n * (self.stats[unit].carrier_capacity - self.stats[unit].carrier_cost)
        return room

    def move(self, count: int, unit: str, origin: str, target: str, *, combat: bool) -> None:
        power = self.power
        stats = self.stats[unit]
        moved = 0
        aboard = self.carry_plan(origin, count) if stats.transport_capacity else []
        distance = self.air_distance(origin, target) if stats.domain == "air" else 1
        for stack, n in self.stacks(origin):
            owner, kind, moves, damage = split(stack)
            if owner != power or kind != unit or moves < distance or damage:
                continue
            take = min(n, count - moved)
            if stats.domain == "air":
                left = moves - distance
            elif stats.domain == "land" and self.is_sea(target):
                left = moves  # boarding costs no movement; the unit moves with its transport
            elif stats.domain == "land" and self.is_sea(origin):
                left = 0  # unloading ends the unit's move (Revised)
            else:
                left = moves - 1
            attack = self.enemy_units(power, target) > 0 or (
                stats.domain == "land" and self.hostile_land(power, target)
            )
            if combat and attack and stats.domain != "air":
                empty = not self.enemy_units(
                    power, target, combat_only=True
                )  # AA guns, factories don't stop it
                if stats.blitz and left > 0 and empty:
                    self.capture(target, power)  # Revised: armour blitzes through empty enemy land
                else:
                    left = 0
            self.add(origin, stack, -take)
            self.add(target, key(power, unit, left, damage), take)
            moved += take
            if moved >= count:
                break
        if stats.domain == "land" and self.is_sea(origin):
            self.moor_transports(origin)
        if combat and stats.domain == "land" and self.is_sea(origin) and self.hostile_land(power, target):
            zones = self.d["bombard"].setdefault(target, [])  # an amphibious assault from this zone
            if origin not in zones:
                zones.append(origin)
        for stack in aboard or []:
            self.add(origin, stack, -1)
            self.add(target, stack)
        if combat and (self.enemy_units(power, target) or self.hostile_land(power, target)):
            if target not in self.d["battles"]:
                self.d["battles"].append(target)
            origins = self.d["origins"].setdefault(target, [])
            if stats.domain != "air" and origin not in origins and self.is_sea(origin) == self.is_sea(target):
                origins.append(origin)  # retreats go back where units came from (not amphibious)

    def moor_transports(self, zone: str) -> None:
        """Transports that have unloaded move no further this turn (Revised)."""
        for stack, n in self.stacks(zone):
            owner, unit, moves, damage = split(stack)
            if owner == self.power and self.stats[unit].transport_capacity and moves:
                self.add(zone, stack, -n)
                self.add(zone, key(owner, unit, 0, damage), n)

    def cargo(self, zone: str, power: str) -> list[str]:
        """The power's land units aboard transports in ``zone``, one stack key per unit, the
        costliest first (the order in which moving transports take them along)."""
        units = []
        for stack, n in self.stacks(zone):
            owner, unit, _, _ = split(stack)
            if owner == power and self.stats[unit].domain == "land":
                units.extend([stack] * n)
        return sorted(units, key=lambda s: (-self.stats[split(s)[1]].transport_cost, s))

    def carry_plan(self, zone: str, count: int) -> list[str] | None:
        """The cargo that ``count`` departing transports take along: the costliest units first,
        until what stays behind fits the transports that stay; ``None`` if that cannot be done."""
        power = self.power
        each = max((self.stats[split(s)[1]].transport_capacity for s, _ in self.stacks(zone)), default=0)
        capacity = count * each
        short = -(self.cargo_room(power, zone) - capacity)  # cargo cost the staying transports cannot hold
        taken: list[str] = []
        for stack in self.cargo(zone, power):
            if short <= 0:
                break
            cost = self.stats[split(stack)[1]].transport_cost
            if cost <= capacity:
                capacity -= cost
                short -= cost
                taken.append(stack)
        return taken if short <= 0 else None

    def factories(self, where: str) -> int:
        return sum(n for s, n in self.d["units"].get(where, {}).items() if self.stats[split(s)[1]].factory)

    def air_distance(self, origin: str, target: str) -> int:
        def neighbours(t: str) -> list[str]:
            return [
                n for n in self.module.territories[t].neighbours if not self.module.territories[n].impassable
            ]

        return bfs_distances([origin], neighbours)[target]

    def freeze_moved(self) -> None:
        """After combat move, land and sea units that moved may not move again this turn (Revised)."""
        power = self.power
        for where in list(self.d["units"]):
            for stack, n in list(self.units(where).items()):
                owner, unit, moves, damage = split(stack)
                stats = self.stats[unit]
                if (
                    owner == power
                    and stats.domain in ("land", "sea")
                    and 0 < moves < self.movement(owner, unit)
                ):
                    self.add(where, stack, -n)
                    self.add(where, key(owner, unit, 0, damage), n)

    def land_aircraft(self) -> None:
        """At the end of non-combat move, aircraft with nowhere legal to be are lost (Revised)."""
        power = self.power
        for where in sorted(self.d["units"]):
            room = self.carrier_room(where) if self.is_sea(where) else 0
            for stack, n in self.stacks(where):
                owner, unit, _, _ = split(stack)
                if owner != power or self.stats[unit].domain != "air":
                    continue
                if self.is_sea(where):
                    fits = max(0, min(n, room)) if self.stats[unit].carrier_cost else 0
                    lost = n - fits
                else:
                    lost = 0 if self.landing_ok(where) else n
                if lost:
                    self.add(where, stack, -lost)
                    self.log(f"{lost} {unit} in {where} cannot land and are lost")

    # ---- battles -----------------------------------------------------------------------------

    def open_battle(self, where: str) -> None:
        self.d["battles"].remove(where)
        if self.is_sea(where):
            self.d["sea_fought"].append(where)
        attacker = self.power
        battle: dict[str, Any] = {
            "where": where,
            "attacker": attacker,
            "round": 0,
            "stage": "roll",
            "dice": [],
            "hits": {},
            "aa_hits": {},
            "chooser": self.defence_chooser(where),
            "origins": sorted(self.d["origins"].pop(where, [])),
            "submerged": {},
        }
        self.d["battle"] = battle
        # AA guns fire once, before the first round, one die per attacking aircraft (Revised;
        # the module's "Roll AA Individually"): hits destroy the aircraft rolled for.
        if not self.is_sea(where) and self.has_enemy_aa(where):
            for stack, n in self.stacks(where):
                owner, unit, _, _ = split(stack)
                if owner == attacker and self.stats[unit].domain == "air":
                    battle["dice"].extend([["aa", unit, self.profile.aa_hit()]] * n)
        if battle["dice"]:
            battle["stage"] = "aa"
            return
        self.start_round(battle)

    # ---- strategic bombing (Revised, with the LHTR 1.3 cap) ----------------------------------

    def raid_options(self) -> list[str]:
        """``raid N bomber FROM -> TO``: bombers flying to an enemy territory with a factory."""
        power = self.power
        result: list[str] = []
        for where in sorted(self.d["units"]):
            reach: dict[tuple[str, str], int] = {}
            for stack, n in self.stacks(where):
                owner, unit, moves, _ = split(stack)
                if owner != power or moves <= 0 or not self.stats[unit].strategic_bomber:
                    continue
                for target in self.air_targets(where, moves, combat=False, anywhere=True):
                    if self.hostile_land(power, target) and self.factories(target):
                        reach[unit, target] = reach.get((unit, target), 0) + n
            for (unit, target), n in sorted(reach.items()):
                result.extend(f"raid {c} {unit} {where} -> {target}" for c in ([1, n] if n > 1 else [1]))
        return result

    def send_raid(self, count: int, unit: str, origin: str, target: str) -> None:
        """Bombers leave the board for the raid; they come back to the target after it."""
        distance = self.air_distance(origin, target)
        for stack, n in self.stacks(origin):
            owner, kind, moves, damage = split(stack)
            if owner != self.power or kind != unit or moves < distance or count <= 0:
                continue
            take = min(n, count)
            count -= take
            self.add(origin, stack, -take)
            raiders = self.d["raids"].setdefault(target, {})
            new = key(owner, unit, moves - distance, damage)
            raiders[new] = raiders.get(new, 0) + take

    def open_raid(self, where: str) -> None:
        """AA fire at each raiding bomber, then each survivor rolls one die of damage."""
        raiders = self.d["raids"].pop(where)
        for stack, n in sorted(raiders.items()):
            self.add(where, stack, n)
        battle: dict[str, Any] = {
            "where": where,
            "attacker": self.power,
            "raid": True,
            "raiders": raiders,
            "round": 0,
            "stage": "aa",
            "dice": [],
            "hits": {},
            "aa_hits": {},
            "damage": 0,
            "chooser": self.defence_chooser(where),
            "origins": [],
        }
        self.d["battle"] = battle
        if self.has_enemy_aa(where):
            for stack, n in sorted(raiders.items()):
                battle["dice"].extend([["aa", split(stack)[1], self.profile.aa_hit()]] * n)
        if not battle["dice"]:
            self.after_raid_dice(battle)

    def after_raid_dice(self, battle: dict[str, Any]) -> None:
        where = battle["where"]
        if battle["stage"] == "aa":
            for unit, hits in sorted(battle["aa_hits"].items()):
                self.remove_units(where, battle["attacker"], unit, hits)
                self.log(f"AA fire at {where} destroys {hits} raiding {unit}")
            battle["stage"] = "bomb"
            for stack, n in self.stacks(where):
                owner, unit, _, _ = split(stack)
                if owner == self.power and self.stats[unit].strategic_bomber and stack in battle["raiders"]:
                    dice = self.profile.bomber_dice(unit, self.techs(owner))
                    for _ in range(min(n, battle["raiders"][stack])):
                        group = f"b{len(battle['dice'])}"
                        battle["dice"].extend([["bomb", unit, 6, group]] * dice)
            if battle["dice"]:
                return
        bonus = self.profile.raid_bonus(self.techs(battle["attacker"]))
        battle["damage"] += sum(face + bonus for face in battle.get("best", {}).values())
        owner = self.owner(where) or ""
        cap = self.profile.bombing_cap(self.module.territories[where].ipc or 0) - self.d["bombed"].get(
            where, 0
        )
        lost = max(0, min(battle["damage"], cap, self.d["bank"].get(owner, 0)))
        if owner:
            self.d["bank"][owner] -= lost
            self.d["bombed"][where] = self.d["bombed"].get(where, 0) + lost
        self.log(f"bombing of {where} costs {owner} {lost} IPCs (rolled {battle['damage']})")
        self.d["battle"] = None

    def rocket_options(self) -> list[str]:
        """``rocket TARGET from SOURCE``: with rockets, each territory holding the power's AA guns
        (not moved this turn) fires once at an enemy factory within 3 spaces (Revised)."""
        power = self.power
        if "rockets" not in self.techs(power):
            return []

        def neighbours(t: str) -> list[str]:
            return [
                n for n in self.module.territories[t].neighbours if not self.module.territories[n].impassable
            ]

        result = []
        for where in sorted(self.d["units"]):
            if where in self.d["rockets_fired"] or self.is_sea(where):
                continue
            ready = any(
                split(s)[0] == power and self.stats[split(s)[1]].aa_gun and split(s)[2] > 0
                for s in self.d["units"][where]
            )
            if not ready:
                continue
            for target, distance in sorted(bfs_distances([where], neighbours, 3).items()):
                if distance > 0 and self.hostile_land(power, target) and self.factories(target):
                    result.append(f"rocket {target} from {where}")
        return result

    def fire_rocket(self, target: str, source: str) -> None:
        """One die of damage to the target's owner, under the same per-territory cap as bombing."""
        self.d["rockets_fired"].append(source)
        self.d["battle"] = {
            "where": target,
            "attacker": self.power,
            "raid": True,
            "raiders": {},
            "round": 0,
            "stage": "bomb",
            "dice": [["bomb", "rocket", 6]],
            "hits": {},
            "aa_hits": {},
            "damage": 0,
            "chooser": self.defence_chooser(target),
            "origins": [],
        }

    def has_enemy_aa(self, where: str) -> bool:
        return any(
            self.stats[split(s)[1]].aa_gun and not self.friendly(self.power, split(s)[0])
            for s in self.d["units"].get(where, {})
        )

    def defence_chooser(self, where: str) -> str:
        """Who chooses the defence's casualties: the territory's owner, else the defender with most units."""
        owner = self.owner(where)
        if owner is not None and not self.friendly(self.power, owner):
            return owner
        counts: dict[str, int] = {}
        for stack, n in self.d["units"].get(where, {}).items():
            p = split(stack)[0]
            if not self.friendly(self.power, p):
                counts[p] = counts.get(p, 0) + n
        return max(sorted(counts), key=lambda p: counts[p]) if counts else self.power

    def side_units(self, where: str, attacker: bool) -> list[tuple[str, str, str, int, int]]:
        """``(stack, power, type, damage, count)`` of one side's combat units in the battle."""
        result = []
        for stack, n in self.stacks(where):
            owner, unit, _, damage = split(stack)
            mine = owner == self.power
            if self.fights(unit, where) and (mine if attacker else not self.friendly(self.power, owner)):
                result.append((stack, owner, unit, damage, n))
        return result

    def start_round(self, battle: dict[str, Any]) -> None:
        """One round of combat. Submarines whose enemy has no destroyer strike first and their
        victims do not fire back (Revised surprise strike); then every other unit fires at once."""
        where = battle["where"]
        if not self.side_units(where, True) or not self.side_units(where, False):
            self.finish_battle(battle)
            return
        battle["round"] += 1
        battle["hits"] = {}
        subs = any(self.stats[u].sub for _, _, u, _, _ in self.side_units(where, False))
        if subs and self.is_sea(where) and not self.has_destroyer(where, True):
            battle["stage"] = "defender-submerge"  # the defence may take its submarines out first
            return
        self.fire(battle)

    def defence_submerges(self, battle: dict[str, Any], submerge: bool) -> None:
        """The defence's answer before a round: its submarines leave the battle, or stay and fight."""
        where = battle["where"]
        if submerge:
            for stack, _, unit, _, n in self.side_units(where, False):
                if self.stats[unit].sub:
                    self.add(where, stack, -n)
                    battle["submerged"][stack] = battle["submerged"].get(stack, 0) + n
            self.log(f"defending submarines submerge at {where}")
            if not self.side_units(where, False):
                self.finish_battle(battle)
                return
        self.fire(battle)

    def fire(self, battle: dict[str, Any]) -> None:
        """The volleys of a round: first-striking submarines, then everything else."""
        strike = self.round_dice(battle, strike=True)
        battle["after"] = "fire" if strike else "round-end"
        battle["dice"] = strike or self.round_dice(battle, strike=False)
        battle["stage"] = "strike" if strike else "roll"
        if not battle["dice"]:
            self.after_dice()

    def has_destroyer(self, where: str, attacker: bool) -> bool:
        return any(self.stats[u].destroyer for _, _, u, _, _ in self.side_units(where, attacker))

    def strikes_first(self, unit: str, where: str, attacker: bool) -> bool:
        return self.stats[unit].sub and not self.has_destroyer(where, not attacker)

    def pool(self, side: str, unit: str, where: str, attacker: bool) -> str:
        """Which units the hits of ``unit`` may fall on: a submarine's only on ships (``-sea``),
        an aircraft's not on submarines unless its side has a destroyer (``-nosub``; Revised)."""
        stats = self.stats[unit]
        if stats.sub:
            return f"{side}-sea"
        if stats.domain == "air" and not self.has_destroyer(where, attacker):
            return f"{side}-nosub"
        return side

    def round_dice(self, battle: dict[str, Any], *, strike: bool) -> list[list[Any]]:
        """The dice of one volley: the first-striking submarines, or every other unit."""
        where = battle["where"]
        attackers = self.side_units(where, True)
        artillery = sum(n for _, _, u, _, n in attackers if self.stats[u].artillery)
        dice: list[list[Any]] = []
        for attacker, side in ((True, "attacker"), (False, "defender")):
            for _, owner, unit, _, n in self.side_units(where, attacker):
                if self.strikes_first(unit, where, attacker) != strike:
                    continue
                pool = self.pool(side, unit, where, attacker)
                for _ in range(n):
                    if attacker:
                        supported = self.stats[unit].supportable and artillery > 0
                        artillery -= 1 if supported else 0
                        value = self.profile.attack_value(unit, supported, self.techs(owner))
                    else:
                        value = self.profile.defence(unit, self.techs(owner))
                    rolls = self.profile.bomber_dice(unit, self.techs(owner)) if attacker else 1
                    if value > 0 and rolls > 1:
                        group = f"g{battle['round']}-{len(dice)}"
                        dice.extend([[pool, unit, value, group]] * rolls)
                    elif value > 0:
                        dice.append([pool, unit, value])
        if not strike and battle["round"] == 1 and not self.is_sea(where):
            dice.extend(self.bombardment(where))
        return dice

    def bombardment(self, where: str) -> list[list[Any]]:
        """Shore bombardment: each battleship in a sea zone that an amphibious assault on ``where``
        came from, and that saw no sea battle this turn, fires once in the first round (Revised)."""
        dice: list[list[Any]] = []
        zones = self.d["bombard"].pop(where, [])
        for zone in sorted(zones):
            if zone in self.d["sea_fought"]:
                continue
            for stack, n in self.stacks(zone):
                owner, unit, _, _ = split(stack)
                if owner == self.power and self.profile.bombards(unit, self.techs(owner)):
                    dice.extend([["attacker", unit, self.stats[unit].attack]] * n)
            self.d["sea_fought"].append(zone)  # a ship bombards once a turn
        return dice

    def after_dice(self) -> None:
        battle = self.d["battle"]
        if battle.get("raid"):
            self.after_raid_dice(battle)
            return
        if battle.get("research"):
            self.after_research(battle)
            return
        if battle["stage"] == "aa":
            for unit, hits in sorted(battle["aa_hits"].items()):
                self.remove_units(battle["where"], battle["attacker"], unit, hits)
                self.log(f"AA fire at {battle['where']} destroys {hits} {unit}")
            battle["aa_hits"] = {}
            battle["hits"] = {}
            self.start_round(battle)
            return
        battle["stage"] = "defender-casualties"
        self.next_casualty(battle)

    def remove_units(self, where: str, power: str, unit: str, count: int) -> None:
        for stack, n in self.stacks(where):
            owner, kind, _, _ = split(stack)
            if owner == power and kind == unit and count > 0:
                take = min(n, count)
                self.add(where, stack, -take)
                count -= take

    def hit_points(self, side: list[tuple[str, str, str, int, int]]) -> int:
        return sum((self.stats[u].hit_points - d) * n for _, _, u, d, n in side)

    def open_pool(self, battle: dict[str, Any]) -> str | None:
        """The hits being assigned now: the most restricted pool of the shooting side first."""
        shooter = "defender" if battle["stage"] == "attacker-casualties" else "attacker"
        for pool in (f"{shooter}-sea", f"{shooter}-nosub", shooter):
            if battle["hits"].get(pool, 0) > 0:
                return pool
        return None

    def eligible(self, battle: dict[str, Any], pool: str) -> list[tuple[str, str, str, int, int]]:
        """The units of the side taking hits that the hits of ``pool`` may fall on."""
        side = self.side_units(battle["where"], battle["stage"] == "attacker-casualties")
        if pool.endswith("-sea"):
            return [u for u in side if self.stats[u[2]].domain == "sea"]
        if pool.endswith("-nosub"):
            return [u for u in side if not self.stats[u[2]].sub]
        return side

    def next_casualty(self, battle: dict[str, Any]) -> None:
        """Ask for casualties one hit at a time; take them without asking when there is no choice.
        Hits that no unit may take are lost (a submarine's hits with only aircraft left)."""
        where = battle["where"]
        while True:
            pool = self.open_pool(battle)
            if pool is None:
                if battle["stage"] == "defender-casualties":
                    battle["stage"] = "attacker-casualties"
                    continue
                if battle["after"] == "fire":  # the surprise strike is over: everyone else fires
                    battle["after"] = "round-end"
                    battle["dice"] = self.round_dice(battle, strike=False)
                    battle["stage"] = "roll"
                    if battle["dice"]:
                        return
                    battle["stage"] = "defender-casualties"
                    continue
                self.after_round(battle)
                return
            owed = battle["hits"][pool]
            targets = self.eligible(battle, pool)
            if owed >= self.hit_points(targets):
                for stack, _, _, _, n in targets:
                    self.add(where, stack, -n)
                if self.is_sea(where):
                    self.drop_cargo(where)
                battle["hits"][pool] = 0
                continue
            options = self.casualty_options(battle)
            if len(options) == 1:
                self.take_casualty(battle, options[0].split(), ask=False)
                continue
            return

    def casualty_options(self, battle: dict[str, Any]) -> list[str]:
        pool = self.open_pool(battle)
        options = []
        for _, owner, unit, damage, _ in self.eligible(battle, pool or ""):
            if self.stats[unit].hit_points - damage > 1:
                options.append(f"damage {owner} {unit}")
            options.append(f"lose {owner} {unit}")
        return sorted(set(options))

    def take_casualty(self, battle: dict[str, Any], words: list[str], *, ask: bool = True) -> None:
        """One hit taken: a unit lost, or (a unit of several hit points) damaged (Revised battleship)."""
        verb, owner, unit = words[0], words[1], words[2]
        pool = self.open_pool(battle) or ""
        where = battle["where"]
        for stack, power, kind, damage, _ in self.eligible(battle, pool):
            if power != owner or kind != unit:
                continue
            if verb == "damage" and self.stats[unit].hit_points - damage <= 1:
                continue
            self.add(where, stack, -1)
            if verb == "damage":
                _, _, moves, _ = split(stack)
                self.add(where, key(owner, unit, moves, damage + 1))
            break
        battle["hits"][pool] -= 1
        if self.is_sea(where):
            self.drop_cargo(where)
        if ask:
            self.next_casualty(battle)

    def can_hurt(self, where: str, attacker: bool) -> bool:
        """Whether any unit of one side could score a hit that some unit of the other may take."""
        targets = self.side_units(where, not attacker)
        side = "attacker" if attacker else "defender"
        for _, owner, unit, _, _ in self.side_units(where, attacker):
            techs = self.techs(owner)
            value = (
                self.profile.attack_value(unit, False, techs)
                if attacker
                else self.profile.defence(unit, techs)
            )
            pool = self.pool(side, unit, where, attacker)
            if value <= 0:
                continue
            if pool.endswith("-sea") and any(self.stats[u].domain == "sea" for _, _, u, _, _ in targets):
                return True
            if pool.endswith("-nosub") and any(not self.stats[u].sub for _, _, u, _, _ in targets):
                return True
            if pool == side and targets:
                return True
        return False

    def after_round(self, battle: dict[str, Any]) -> None:
        where = battle["where"]
        if not self.can_hurt(where, True) and not self.can_hurt(where, False):
            self.finish_battle(battle)  # neither side can hit the other (e.g. submarines and aircraft)
            return
        if self.side_units(where, True) and self.side_units(where, False) and self.withdrawals(battle):
            battle["stage"] = "retreat"
            return
        if self.side_units(where, True) and self.side_units(where, False):
            self.start_round(battle)
            return
        self.finish_battle(battle)

    def withdrawals(self, battle: dict[str, Any]) -> list[str]:
        """What the attacker may do instead of pressing on: retreat to a place its land or sea
        units came from; break off an attack of aircraft alone (they stay where they are and must
        land in non-combat move); submerge its submarines when the defence has no destroyer."""
        where = battle["where"]
        options = [f"retreat to {t}" for t in self.retreats(battle)]
        attackers = self.side_units(where, True)
        if attackers and all(self.stats[u].domain == "air" for _, _, u, _, _ in attackers):
            options.append("break off")
        if any(self.stats[u].sub for _, _, u, _, _ in attackers) and not self.has_destroyer(where, False):
            options.append("submerge submarines")
        return options

    def submerge(self, battle: dict[str, Any]) -> None:
        """Attacking submarines leave the battle (they stay in the sea zone); the rest fight on."""
        where = battle["where"]
        for stack, _, unit, _, n in self.side_units(where, True):
            if self.stats[unit].sub:
                self.add(where, stack, -n)
                battle["submerged"][stack] = battle["submerged"].get(stack, 0) + n
        self.log(f"submarines submerge at {where}")
        self.start_round(battle)

    def surface(self, battle: dict[str, Any]) -> None:
        """Submerged submarines are back on the board when the battle is over."""
        for stack, n in sorted(battle.get("submerged", {}).items()):
            self.add(battle["where"], stack, n)

    def retreats(self, battle: dict[str, Any]) -> list[str]:
        """Where the attacker may retreat: a friendly territory (or enemy-free sea zone) it came from."""
        power = self.power
        result = []
        for origin in battle["origins"]:
            if self.is_sea(origin):
                if not self.enemy_units(power, origin, combat_only=True):
                    result.append(origin)
            elif self.friendly(power, self.owner(origin)):
                result.append(origin)
        return result

    def retreat(self, battle: dict[str, Any], to: str) -> None:
        """Every attacking unit leaves for ``to``; land and sea units have no moves left."""
        where = battle["where"]
        leaving = [(stack, unit, damage, n) for stack, _, unit, damage, n in self.side_units(where, True)]
        if self.is_sea(where):  # cargo goes with its transports
            leaving += [(s, split(s)[1], 0, 1) for s in self.cargo(where, self.power)]
        for stack, unit, damage, n in leaving:
            _, _, moves, _ = split(stack)
            domain = self.stats[unit].domain
            left = moves if domain == "air" or (domain == "land" and self.is_sea(where)) else 0
            self.add(where, stack, -n)
            self.add(to, key(self.power, unit, left, damage), n)
        self.log(f"retreats from {where} to {to}")
        self.surface(battle)
        self.d["battle"] = None

    def finish_battle(self, battle: dict[str, Any]) -> None:
        """Capture (Revised: land units must survive; aircraft alone cannot take a territory)."""
        where = battle["where"]
        self.surface(battle)
        attackers = self.side_units(where, True)
        defenders = self.side_units(where, False)
        self.d["battle"] = None
        if self.is_sea(where):
            self.sink_homeless_aircraft(where)
            self.drop_cargo(where)
            return
        if not defenders and any(self.stats[u].domain == "land" for _, _, u, _, _ in attackers):
            self.capture(where, self.power)
        self.log(f"battle at {where} ends")

    def sink_homeless_aircraft(self, zone: str) -> None:
        """Defending aircraft at sea beyond their side's carrier room are lost after a sea battle."""
        rooms: dict[str, int] = {}
        for stack, n in self.stacks(zone):
            owner, unit, _, _ = split(stack)
            ally = self.alliance(owner)
            rooms[ally] = rooms.get(ally, 0) + n * self.stats[unit].carrier_capacity
        for stack, n in self.stacks(zone):
            owner, unit, _, _ = split(stack)
            if self.stats[unit].domain != "air" or owner == self.power:
                continue
            ally = self.alliance(owner)
            fits = min(n, max(0, rooms[ally]))
            rooms[ally] -= fits
            if n - fits:
                self.add(zone, stack, fits - n)

    def drop_cargo(self, zone: str) -> None:
        """Cargo whose transports were sunk goes down with them (the cheapest kept aboard first)."""
        for power in self.order:
            for stack in reversed(self.cargo(zone, power)):
                if self.cargo_room(power, zone) >= 0:
                    break
                self.add(zone, stack, -1)

    def capture(self, where: str, captor: str) -> None:
        """Take a territory: liberation to its original owner if that power's capital is in
        friendly hands, capture of a capital takes the owner's IPCs, factories and AA guns change sides."""
        previous = self.owner(where)
        territory = self.module.territories[where]
        original = territory.original_owner
        new = captor
        if (
            original is not None
            and original != captor
            and self.friendly(captor, original)
            and self.capital_held(original)
        ):
            new = original
        self.d["owner"][where] = new
        if where not in self.d["conquered"]:
            self.d["conquered"].append(where)
        for stack, n in self.stacks(where):
            owner, unit, _, damage = split(stack)
            if not self.friendly(captor, owner) and not self.stats[unit].combat:
                self.add(where, stack, -n)
                self.add(
                    where, key(new, unit, 0 if new == self.power else self.movement(new, unit), damage), n
                )
        if previous is not None and territory.capital == previous and not self.friendly(captor, previous):
            taken = self.profile.plunder(self.d["bank"][previous])
            self.d["bank"][previous] -= taken
            self.d["bank"][captor] += taken
            self.log(f"captures {where}, the capital of {previous}, and takes {taken} IPCs")
        else:
            self.log(f"takes {where}")


def new_game(profile: Profile, max_rounds: int) -> AAGame:
    """The position at the start: owners, units and IPCs of the module's setup; first power to move."""
    module = profile.module
    data: dict[str, Any] = {
        "round": 1,
        "turn": 0,
        "phase": "purchase",
        "owner": {t.id: t.original_owner for t in module.territories.values() if t.type.value == "land"},
        "units": {},
        "bank": {p.id: p.starting_ipcs for p in module.turn_order()},
        "purchased": {},
        "placed": {},
        "battles": [],
        "raids": {},
        "techs": {},
        "new_techs": [],
        "research": None,
        "bombed": {},
        "bombard": {},
        "sea_fought": [],
        "rockets_fired": [],
        "origins": {},
        "battle": None,
        "conquered": [],
        "start_factories": [],
        "max_rounds": max_rounds,
        "result": None,
        "log": [],
    }
    game = AAGame(profile, data)
    for placement in module.setup:
        stack = key(placement.power, placement.type, profile.stats[placement.type].movement)
        game.add(placement.territory, stack, placement.count)
    game.start_turn()
    return game


def unit_total(game: AAGame, power: str | None = None) -> dict[str, int]:
    """Units of each type on the board (of one power, or of all)."""
    totals: dict[str, int] = {}
    for here in game.d["units"].values():
        for stack, n in here.items():
            owner, unit, _, _ = split(stack)
            if power is None or owner == power:
                totals[unit] = totals.get(unit, 0) + n
    return totals


def iter_units(game: AAGame) -> Iterable[tuple[str, str, str, int, int, int]]:
    """``(where, power, type, moves, damage, count)`` of every stack on the board."""
    for where, here in sorted(game.d["units"].items()):
        for stack, n in sorted(here.items()):
            owner, unit, moves, damage = split(stack)
            yield where, owner, unit, moves, damage, n
