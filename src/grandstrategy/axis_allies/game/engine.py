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

from grandstrategy.axis_allies.game.bids import BID_PHASE, Bids
from grandstrategy.axis_allies.game.board import copy_json, key, split
from grandstrategy.axis_allies.game.movement import Movement
from grandstrategy.axis_allies.game.profile import BattleMachine, Profile
from grandstrategy.core.actions import Action
from grandstrategy.core.canonical import JSONObject
from grandstrategy.core.chance import ChanceNode
from grandstrategy.core.errors import NotationError
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


class AAGame(Movement, Bids, GameState):
    """One position of a game: the profile (rules and module) and the state data."""

    def seats(self) -> tuple[Seat, ...]:
        return tuple(Seat(p) for p in self.order)

    def to_act(self) -> ToAct:
        if self.d["result"] is not None:
            return TERMINAL
        battle = self.d["battle"]
        if (machine := self.battle_machine()) is not None:
            who = machine.to_act(self)
            return CHANCE if who is None else Seat(who)
        if battle is not None:
            if battle["dice"]:
                return CHANCE
            decider = self.profile.battle_seat(self, battle)
            if decider is not None:
                return Seat(decider)
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

    def battle_machine(self) -> BattleMachine | None:
        """The profile's battle machine when the open battle is one of its own, else None."""
        battle = self.d["battle"]
        return self.profile.battle_machine() if battle is not None and "machine" in battle else None

    def chance_node(self) -> ChanceNode:
        if (machine := self.battle_machine()) is not None:
            return ChanceNode("die", machine.chance_label(self), _DIE.outcomes)
        battle = self.d["battle"]
        assert battle is not None and battle["dice"]
        side, unit, value, *_ = battle["dice"][0]
        where = battle["where"]
        custom = self.profile.dice_label(self, battle, battle["dice"][0])
        if custom is not None:
            label = custom
        elif side == "aa":
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
        if (machine := self.battle_machine()) is not None:
            machine.apply_die(self, int(outcome))
            self.settle()
            return
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
        return AAGame(self.profile, copy_json(self.d))

    def to_json(self) -> JSONObject:
        return copy_json(self.d)  # type: ignore[no-any-return]

    def view(self, seat: Seat | None) -> JSONObject:
        """Everything in Revised is open information: every seat sees the whole state; a
        variant's profile takes out what another seat wrote down in secret (:meth:`Profile.view`)."""
        data: JSONObject = self.profile.view(self, None if seat is None else str(seat), self.to_json())
        return data

    def private_decision(self) -> bool:
        """Whether the open decision is a secret one (the profile says; never in Revised)."""
        return self.d["result"] is None and self.profile.private_decision(self)

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

    def play_names(self) -> dict[str, dict[str, str]]:
        """Names for people, for the play layer's telling of moves: ``powers`` (id -> printed
        name), ``places`` (territory and sea zone id -> printed name), ``units`` (type -> words)
        and ``alliances`` (power id -> alliance). Plain data: no game behaviour depends on it."""
        return {
            "powers": {p.id: p.name for p in self.module.powers.values()},
            "places": {t.id: t.name for t in self.module.territories.values()},
            "units": {unit: unit.replace("-", " ") for unit in self.stats},
            "alliances": {p.id: p.alliance for p in self.module.powers.values()},
        }

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

    def play_odds(self, seat: str, option: str) -> float | None:
        """The exact chance that the battle an option opens or shapes goes ``seat``'s way (the
        heuristic bot's prior, the terminal's hint); ``None`` for other options (:mod:`.advice`)."""
        from grandstrategy.axis_allies.game.advice import option_odds

        return option_odds(self, seat, option)

    def play_chances(self) -> dict[str, tuple[float, str]]:
        """Each option of the open decision that opens or shapes a battle, with the exact chance
        that it goes the deciding side's way and a short text (the terminal's menu)."""
        from grandstrategy.axis_allies.game.advice import menu_chances

        return menu_chances(self)

    def play_policy(self, seat: str, options: list[str]) -> str:
        """The heuristic bot's choice among ``options`` (greedy, on exact odds: :mod:`.policy`)."""
        from grandstrategy.axis_allies.game.policy import choose

        return choose(self, seat, options)

    def options(self) -> list[str]:
        """The legal options (notation after ``power:``) of the decision now open."""
        custom = self.profile.options(self)
        if custom is not None:
            return custom
        battle = self.d["battle"]
        phase = self.d["phase"]
        if (machine := self.battle_machine()) is not None:
            return machine.options(self)
        if battle is not None:
            if battle["stage"] in ("defender-casualties", "attacker-casualties"):
                return self.casualty_options(battle)
            if battle["stage"] == "retreat":
                return ["press attack", *self.withdrawals(battle)]
            if battle["stage"] in ("defender-submerge", "attacker-submerge"):
                return ["keep submarines in the battle", "submerge submarines"]
        if phase == "research":
            return self.research_options()
        if phase == BID_PHASE:
            return self.bid_options()
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
        if self.profile.choose(self, option):
            return
        words = option.split()
        phase = self.d["phase"]
        battle = self.d["battle"]
        if (machine := self.battle_machine()) is not None:
            machine.choose(self, option)
            return
        if battle is not None:
            if words[0] == "lose" or words[0] == "damage":
                self.take_casualty(battle, words)
            elif option == "press attack":
                self.start_round(battle)
            elif battle["stage"] == "defender-submerge":
                self.defence_submerges(battle, option == "submerge submarines")
            elif battle["stage"] == "attacker-submerge":
                self.attacker_submerges(battle, option == "submerge submarines")
            elif option == "retreat aircraft":
                self.retreat_aircraft(battle)
            elif option == "break off":
                self.log(f"aircraft break off the attack on {battle['where']}")
                self.finish_battle(battle)
            else:
                self.retreat(battle, words[-1])
            return
        if phase == BID_PHASE:
            if option == "done":
                self.end_bid()
            else:
                self.place_bid(words[1], words[2])
        elif option == "done":
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
            # move N TYPE FROM -> TO [with K fighter]
            riders = int(words[7]) if len(words) > 7 and words[6] == "with" else None
            self.move(
                int(words[1]), words[2], words[3], words[5], combat=phase == "combat-move", riders=riders
            )
        elif words[0] == "fight":
            machine = self.profile.battle_machine()
            machine.open(self, words[1]) if machine is not None else self.open_battle(words[1])
        elif words[0] == "rocket":
            self.fire_rocket(words[1], words[3])
        elif words[0] == "bomb":
            self.open_raid(words[1])
        elif words[0] == "raid":
            self.send_raid(int(words[1]), words[2], words[3], words[5])
        elif words[0] == "place":
            self.place(words[1], words[2], words[3] if len(words) > 3 else None)

    def settle(self) -> None:
        """Run the steps that need nobody: empty phases, the end of a turn, the victory check."""
        for _ in range(1000):
            if self.d["result"] is not None or self.d["battle"] is not None:
                return
            step = self.profile.settle_step(self)
            if step is not None:
                if step:
                    continue
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
        if self.profile.end_phase(self):
            return
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
            self.land_aircraft()  # LHTR: fighters whose new carrier was not placed under them
            self.end_turn()
            return
        self.d["phase"] = PHASES[PHASES.index(phase) + 1]

    def start_bid_done(self) -> None:
        """The bids are placed: round 1 begins with the first power's turn."""
        self.start_turn()

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
        self.d["amphibious"] = {}
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
                    if self.carrier_cost(unit):  # LHTR: new fighters may go onto carriers next to the factory
                        for zone in self.module.sea_neighbours(factory):
                            if self.carrier_room(zone) >= self.carrier_cost(unit):
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

    def after_dice(self) -> None:
        """Research dice end in a breakthrough or not; any other dice go on with the battle."""
        battle = self.d["battle"]
        if self.profile.after_dice(self, battle):
            return
        if battle.get("research"):
            self.after_research(battle)
            return
        super().after_dice()


def new_game(profile: Profile, max_rounds: int, bid: Mapping[str, int] | None = None) -> AAGame:
    """The position at the start: owners, units and IPCs of the module's setup; first power to
    move, or, with a ``bid`` (``{power: IPCs}``), the first bidding power placing its bid."""
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
        "amphibious": {},
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
    profile.setup_state(game)
    if bid:
        game.d["bid"] = dict(bid)
        game.d["phase"] = BID_PHASE
        game.d["turn"] = min(game.order.index(p) for p in bid)
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
