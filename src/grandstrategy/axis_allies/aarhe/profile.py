"""The Historical Edition variant as a :class:`~grandstrategy.axis_allies.game.profile.Profile`.

It overrides the base game's hooks, never its engine: the sequence of play (team turns, the
eight phases, :mod:`.turns`), prices and income (:mod:`.economy`), the map's changes
(:mod:`.world`), research by progress boxes, diplomacy and the victory modes, and the movement
limits of Stalinist xenophobia, Axis non-cooperation and terrain. Every ``fight`` is the
variant's combat (:mod:`.combat`, through the ``battle_machine`` hook): its land and naval cycles,
the two-hit units and their repair at the start of a turn, retreats settled when the combat
phase ends.
Rules are cited by the variant document's line (``S3:L206``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, cast

from grandstrategy.axis_allies.aarhe import (
    atomic,
    bot,
    builds,
    carriage,
    convoys,
    deployment,
    economy,
    goals,
    interdiction,
    lendlease,
    neutrals,
    optional,
    overflight,
    support,
    transit,
    turns,
)
from grandstrategy.axis_allies.aarhe.combat import AarheBattles
from grandstrategy.axis_allies.aarhe.combat.special import open_strait_fire, settle_retreats
from grandstrategy.axis_allies.aarhe.combat.tables import tables as combat_tables
from grandstrategy.axis_allies.aarhe.combat.tables import with_variant_hits
from grandstrategy.axis_allies.aarhe.tables import Tables, load_tables
from grandstrategy.axis_allies.aarhe.world import variant_module
from grandstrategy.axis_allies.game.board import split
from grandstrategy.axis_allies.game.combat import Combat
from grandstrategy.axis_allies.game.profile import BattleMachine, Profile
from grandstrategy.axis_allies.module.world import MapModule
from grandstrategy.core.graph import bfs_distances

if TYPE_CHECKING:
    from grandstrategy.axis_allies.game.board import Board
    from grandstrategy.axis_allies.game.engine import AAGame

VICTORY_MODES = ("city", "total", "economic")
FERRY_BONUS = 2
CLEAN_PHASES = ("purchase", "income", "mobilize", "research", "diplomacy")
"""Phases in which the power on move has no land units at sea (S3:L232)."""
"""Spaces a non-combat flight goes beyond the aircraft's movement (ferry range, S3:L232)."""


class CountedBattles(AarheBattles):
    """The variant's battle machine, also counting each land battle's combat cycles against the
    territory (production interruption, S3:L216, :func:`.turns.count_cycles`): after every step
    the battle's ``round`` follows the machine's ``cycle``."""

    def open(self, game: Combat, where: str) -> None:
        super().open(game, where)
        self._count(game, game.d["battle"])

    def choose(self, game: Combat, option: str) -> None:
        battle = game.d["battle"]
        if battle.get("kind") == support.KIND:
            support.answer(game, option)  # Defensive Air Support declarations (S3:L230)
            return
        if battle.get("kind") == interdiction.KIND:
            interdiction.answer(game, option)  # air interdiction missions (S3:L230)
            return
        if battle.get("kind") in (convoys.KIND, goals.KIND):
            whole = cast("AAGame", game)  # the engine's state: these steps read its economy
            if battle["kind"] == convoys.KIND:
                convoys.answer(whole, option)  # S3:L214: a secret convoy route, zone by zone
                if game.d["battle"] is None:
                    turns.bank_income(whole)
            else:
                goals.answer_pick(whole, cast(AarheProfile, whole.profile).tables, option)  # S3:L250
            return
        super().choose(game, option)
        self._count(game, battle)

    def apply_die(self, game: Combat, face: int) -> None:
        battle = game.d["battle"]
        super().apply_die(game, face)
        self._count(game, battle)

    @staticmethod
    def _count(game: Combat, battle: dict[str, Any] | None) -> None:
        if battle is None or "kind" in battle:
            return  # special combats (strait fire, transit, ...) are no battle for a territory
        battle["round"] = max(int(battle["round"]), int(battle["cycle"]))
        turns.count_cycles(game, battle)  # type: ignore[arg-type]


BATTLES = CountedBattles()
"""The variant's one battle machine object (it holds no state)."""


class AarheProfile(Profile):
    """Axis & Allies Revised: Historical Edition (the seed's LHTR 1.3 revision), Italy off."""

    name = "aarhe"
    title = "Axis & Allies Revised: Historical Edition (Italy off)"
    default_max_rounds = 12

    phases = turns.PHASES
    dice_phases = ("combat", "research", "diplomacy", "income", "combat-move", "noncombat-move", "purchase")
    """Strait fire (S3:L232), overflight interception (S3:L216) and submarine transit (S3:L218)
    open a short battle in the move phases; :meth:`problems` allows only such special combats,
    and in purchase only the secret goal pick before play (S3:L250)."""
    move_phases = ("combat-move", "noncombat-move")
    holding_phases = ("purchase", "income", "combat-move", "combat", "noncombat-move", "mobilize")
    technologies = ()  # research goes by progress boxes, not the base game's dice (S3:L240)
    research_cost = 5

    def __init__(self, module: MapModule) -> None:
        self.tables: Tables = load_tables(module)
        super().__init__(variant_module(module, None))
        # the optional units (S3:L248, sold only when the game plays them); two-hit carriers and
        # heavy tanks (S3:L244, L248)
        self.stats = with_variant_hits(optional.with_optional_units(self.stats))
        self.points = economy.city_points(self.tables)
        self.extreme = frozenset(n.territory for n in self.tables.diplomacy.neutrals if n.extreme)
        self.overflight = next(t.at for t in self.tables.diplomacy.thresholds if t.id == "overflight")
        self.land_entry = next(t.at for t in self.tables.diplomacy.thresholds if t.id == "land-entry")

    # ---- state and sequence of play -------------------------------------------------------

    def setup_state(self, game: AAGame) -> None:
        """The variant's state; round 1 is the Soviet Union's alone (S3:L206)."""
        game.d["aarhe"] = {
            "victory": "city",
            "team": 0,
            "queue": [],
            "waiting": {},
            "building": {},
            "held": {},
            "progress": {
                p: {t.id: t.start[p] for t in self.tables.research.techs if p in t.start} for p in game.order
            },
            "transfers": {},
            "transferred": [],
            "neutrals": {n.territory: n.position for n in self.tables.diplomacy.neutrals},
            "neutral_income": {},
            "russia_fallen": False,
            "cycles": {},
            "damage": {},
            "axis_capital_taken": False,
        }
        game.d["aarhe_turn"] = {}
        first = turns.team_order(self.tables, 1)[0]
        game.d["aarhe"]["queue"] = turns.team_queue(self.tables, 1, first)
        turns.next_step(game, self.tables)

    def options(self, game: AAGame) -> list[str] | None:
        if game.d["battle"] is not None:
            return None  # battles (and the variant's dice steps) are the base engine's
        phase = game.d["phase"]
        if phase == "purchase":
            options = turns.purchase_options(game, self.tables)
            bombs = atomic.buy_options(game)  # S3:L238
            return [*options[:-1], *lendlease.load_options(game, self.tables), *bombs, options[-1]]
        if phase == "noncombat-move":
            extra = atomic.load_options(game)  # S3:L238: a bomb onto a bomber
            extra = [*extra, *carriage.airlift_options(game)]  # S3:L232: bombers carry infantry
            if game.power == self.tables.economy.lend_lease.giver:
                extra = [*lendlease.deliver_options(game, self.tables), *extra]
            extra += deployment.deploy_options(game)  # S3:L236: an ID turned upright
            moves = [m for m in game.move_options(combat=False) if deployment.movable(game, m)]
            return [*extra, *moves, "done"]
        if phase == "combat-move":
            strikes = atomic.strike_options(game)  # S3:L238: the nuclear attack
            attacks = neutrals.attack_options(game, self.tables)  # S3:L242: attacking a neutral
            strikes += optional.shell_options(game)  # S3:L248: heavy artillery from next door
            if strikes or attacks:
                return [*game.move_options(combat=True), *game.raid_options(), *strikes, *attacks, "done"]
        if phase == "mobilize":
            return [*builds.place_options(game), *turns.place_options(game, self.tables)]
        if phase == "research":
            if game.d["aarhe_turn"]["exile"]:
                return ["done"]
            return turns.research_options(game, self.tables)
        if phase == "diplomacy":
            return turns.diplomacy_options(game, self.tables) if not game.d["aarhe_turn"]["exile"] else []
        return None

    def choose(self, game: AAGame, option: str) -> bool:
        if game.d["battle"] is not None:
            return False
        phase, words = game.d["phase"], option.split()
        if phase == "purchase" and option == "buy atomic-bomb":
            atomic.buy(game)
        elif phase == "noncombat-move" and words[0] == "load":
            atomic.load(game, words[3])
        elif phase == "noncombat-move" and words[0] == "airlift":
            carriage.airlift(game, int(words[1]), words[3], words[5])
        elif phase == "combat-move" and words[0] == "atomic":
            atomic.strike(game, words[2], words[4])
        elif phase == "combat-move" and option.startswith(neutrals.OPTION + " "):
            neutrals.attack(game, self.tables, words[2])  # S3:L242, L246
        elif phase == "combat-move" and words[0] == optional.SHELL:
            optional.shell(game, words[1], words[3])
        elif phase == "purchase" and words[0] == "buy" and words[-2:-1] == ["as"]:
            builds.buy(game, words, turns.two_turn_units(self.tables))  # S3:L248-250
        elif phase == "mobilize" and words[:2] == ["place", "national"]:
            builds.place(game, words)
        elif phase == "purchase" and words[0] == "buy":
            turns.buy(game, self.tables, words)
        elif phase == "purchase" and words[0] == "scorch":
            game.d["aarhe_turn"]["scorch"].append(words[1])
        elif phase == "mobilize" and words[0] == "place":
            turns.place(game, self.tables, words)
        elif phase == "research" and words[0] == "research":
            game.d["research"] = {"tech": words[1], "dice": 0}
        elif phase == "research" and option == "buy research die":
            game.d["aarhe_turn"]["research_bought"] += 1
            game.d["bank"][game.power] -= self.tables.research.die_cost.value
        elif phase == "research" and option == "roll research dice":
            turns.start_research_roll(game, self.tables)
        elif phase == "research" and words[0] == "transfer":
            partner = words[3]
            game.d["aarhe"]["transfers"].setdefault(partner, []).append(words[1])
            game.d["aarhe"]["transferred"].append(f"{game.power}>{partner}")
            game.log(f"hands {words[1]} to {partner}")
        elif phase == "diplomacy" and words[0] == "court":
            turns.start_diplomacy_roll(game, self.tables, words[1])
        elif phase == "diplomacy" and option == "done":
            game.d["aarhe_turn"]["diplomacy_rolls"] = 99
        elif phase == "purchase" and words[0] == "lend-lease":
            lendlease.load(game, int(words[1]), words[3])
        elif phase == "noncombat-move" and words[0] == deployment.DEPLOY:
            deployment.deploy(game, words[3])
        elif phase == "noncombat-move" and words[0] == "deliver":
            lendlease.deliver(game, words[2], words[4])
        elif words[0] == "move" and phase == "combat-move" and self.stats[words[2]].domain == "air":
            if not overflight.start(game, int(words[1]), words[2], words[3], words[5]):  # S3:L216
                game.move(int(words[1]), words[2], words[3], words[5], combat=True)
        elif words[0] == "move" and phase in ("combat-move", "noncombat-move"):
            before = dict(game.units(words[5]))
            game.move(int(words[1]), words[2], words[3], words[5], combat=phase == "combat-move")
            deployment.moved(game, words[2], words[3], words[5], int(words[1]))  # IDs on their side
            turns.stop_in_terrain(game, self.tables, words[2], words[5])
            if game.stats[words[2]].transport_capacity:
                lendlease.follow(game, words[3], words[5])
            self.queue_strait_fire(game, words[2], words[3], words[5])
            if phase == "combat-move":
                transit.start(game, words[2], words[5], int(words[1]))  # S3:L218
            if game.d["battle"] is None:  # S3:L230: movers into or out of an interdicted place
                interdiction.start_rolls(game, words[2], words[3], words[5], before)
        else:
            return False
        return True

    def end_phase(self, game: AAGame) -> bool:
        phase = game.d["phase"]
        if phase == "combat-move":  # the team's combat barrier (S3:L206-208)
            game.freeze_moved()
            turns.set_aside(game)
            turns.next_step(game, self.tables)
        elif phase == "noncombat-move":
            carriage.drop_cargo_at_sea(game)  # S3:L232: none stays aboard to the next turn
            game.land_aircraft()
            game.d["phase"] = "mobilize"
            turns.scorch(game)
        elif phase == "mobilize":
            lost = sum(game.d["purchased"].values()) + builds.unplaced(game)
            if lost:
                game.log(f"{lost} purchased unit(s) could not be placed and are lost")
            game.d["purchased"] = {}
            game.d["phase"] = "research"
        elif phase == "research":
            game.d["research"] = None
            game.d["phase"] = "diplomacy"
        elif phase == "diplomacy":
            turns.end_nation_turn(game, self.tables)
        else:
            if phase == "combat":
                settle_retreats(game)  # S3:L222, L226: retreats into lost places are lost
                optional.end_combat(game)  # heavy artillery declarations end (S3:L248)
                game.d.pop("aarhe_support", None)  # missions to places never fought over end
            game.d["phase"] = turns.PHASES[turns.PHASES.index(phase) + 1]
        return True

    def settle_step(self, game: AAGame) -> bool | None:
        pending = game.d["aarhe_turn"].get("strait_queue")
        if pending:  # S3:L232: each battery's fire is its own short battle, one at a time
            territory, zone, unit = pending.pop(0)
            ships = [s for s, _ in game.stacks(zone) if split(s)[:2] == (game.power, unit)]
            if ships:
                open_strait_fire(game, territory, zone, ships)
            return True
        if overflight.finish(game) or transit.finish(game):  # a flight flies on; detected subs stop
            return True
        if interdiction.finish(game):  # S3:L230: interdicted movers stopped or destroyed
            return True
        records = game.d["aarhe_turn"]
        due = game.d["phase"] == "combat-move" and records.pop("interdiction_due", False)
        if due and interdiction.open_declarations(game):  # S3:L230: the enemy's bombers, before any move
            return True
        if interdiction.next_attack(game):  # each mission's one-cycle attack, one at a time
            return True
        if game.d["phase"] == "combat" and game.d["battles"] and not records.get("support_asked"):
            records["support_asked"] = True  # S3:L230: declared before any combat is resolved
            support.open_declarations(game)
            return True
        self.note_captures(game)
        lendlease.sink_unescorted(game, self.tables)
        atomic.drop_lost(game)
        phase = game.d["phase"]
        if phase == "income":
            turns.collect_income(game, self.tables)
            return True
        if (
            phase == "mobilize"
            and not turns.place_options(game, self.tables)
            and not builds.place_options(game)
        ):
            game.end_phase()
            return True
        if phase == "diplomacy" and not self.options(game):
            game.end_phase()
            return True
        if phase in ("mobilize", "research", "diplomacy", "purchase"):
            return False
        return None

    def after_dice(self, game: AAGame, battle: dict[str, Any]) -> bool:
        if battle.get("progress"):
            turns.after_research(game, self.tables, battle)
        elif battle.get("diplomacy"):
            turns.after_diplomacy(game, self.tables, battle)
        elif battle.get("convoy"):
            turns.after_convoy(game, self.tables, battle)
        else:
            turns.count_cycles(game, battle)
            return False
        return True

    def dice_label(self, game: AAGame, battle: dict[str, Any], die: Sequence[Any]) -> str | None:
        side, subject, value = die[0], die[1], die[2]
        if side == "progress":
            return f"{battle['attacker']} researches {subject}: a {value} ticks a box"
        if side == "diplomacy":
            return f"{battle['attacker']} courts {subject}: hits on {value} or less"
        if side.startswith("convoy"):
            who = battle["attacker"]
            return f"an enemy warship in {subject} attacks {who}'s convoy: hits on {value} or less"
        return None

    def note_captures(self, game: AAGame) -> None:
        """Record the captures that lift xenophobia and Axis non-cooperation for good."""
        aarhe = game.d["aarhe"]
        goals.record_owners(game, self.tables)
        xeno, apart = self.tables.map.xenophobia, self.tables.map.non_cooperation
        if not aarhe["russia_fallen"] and game.alliance(game.owner(xeno.lifted_by) or xeno.owner) != "allies":
            aarhe["russia_fallen"] = True
        for capital in apart.until_taken:
            owner = game.owner(capital)
            if not aarhe["axis_capital_taken"] and owner is not None and game.alliance(owner) != "axis":
                aarhe["axis_capital_taken"] = True

    def waiting_battles(self, game: AAGame) -> Iterable[str]:
        return turns.waiting_battles(game)

    def problems(self, game: AAGame) -> list[str]:
        found = turns.problems(game, self.tables) + neutrals.problems(game, self.tables)
        found.extend(carriage.problems(game, CLEAN_PHASES))
        battle = game.d["battle"]
        if battle is not None and game.d["phase"] in self.move_phases and "kind" not in battle:
            found.append(f"a battle is open in phase {game.d['phase']}")
        if battle is not None and game.d["phase"] == "purchase" and battle.get("kind") != goals.KIND:
            found.append("a battle is open in phase purchase")
        return found

    def queue_strait_fire(self, game: AAGame, unit: str, origin: str, target: str) -> None:
        """Hostile ships (never submarines) moving between a strait's two sea zones draw 2 dice
        from each territory of the strait held by the other side, once per territory and move
        phase (S3:L232); the fire is queued and opened by :meth:`settle_step`. The holder's dice
        aim at the mover's ship types now in ``target`` (a ship of that type already there may
        take the hit, AH-W1)."""
        if not (game.is_sea(origin) and game.is_sea(target)) or game.stats[unit].sub:
            return
        records = game.d["aarhe_turn"]
        fired = records.setdefault("straits", [])
        for territory, zones in combat_tables().straits:
            holder = game.owner(territory)
            tag = f"{game.d['phase']} {territory}"
            if {origin, target} != set(zones) or tag in fired:
                continue
            if holder is None or game.friendly(game.power, holder):
                continue
            fired.append(tag)
            records.setdefault("strait_queue", []).append([territory, target, unit])

    def aside_units(self, game: AAGame) -> Iterable[tuple[str, str, int]]:
        return [*turns.aside_units(game), *neutrals.reserve(game, self.tables)]

    # ---- combat ----------------------------------------------------------------------------

    def battle_machine(self) -> BattleMachine:
        """Every battle is the variant's: land and naval cycles (S3:L220-L230)."""
        return BATTLES

    def private_decision(self, game: AAGame) -> bool:
        """The secret steps: a convoy's route (S3:L214) and the National Victory goals (S3:L250)."""
        battle = game.d["battle"]
        return battle is not None and battle.get("kind") in (convoys.KIND, goals.KIND)

    def view(self, game: AAGame, seat: str | None, data: dict[str, Any]) -> dict[str, Any]:
        """Another seat's convoy routes and goal picks are out of ``seat``'s view."""
        convoys.redact(data, seat)
        goals.redact(data, seat)
        return data

    def battle_policy(self, game: AAGame, seat: str, options: list[str]) -> str | None:
        """The heuristic bot in the variant's battles: the documented default choices of the
        variant's odds (:func:`.combat.odds.default_policy`: aim at the costliest, screen the
        costliest, damage before losing, lose the cheapest), except that an attacker retreats to
        the first place offered once the base game's exact odds of the battle as it stands (an
        approximation of the variant's cycle) fall below the base policy's ``PRESS``."""
        from grandstrategy.axis_allies.aarhe.combat.odds import default_policy
        from grandstrategy.axis_allies.game.advice import attacker_chances, battle_at
        from grandstrategy.axis_allies.game.policy import PRESS

        if game.d["battle"].get("kind") == support.KIND:  # support a land battle, never a fleet
            land = [o for o in options if o.startswith("support ") and not game.is_sea(o.split()[1])]
            return land[0] if land else "done"
        if game.d["battle"].get("kind") == interdiction.KIND:
            return bot.interdiction(game, options)  # idle bombers at a worthwhile target
        if game.d["battle"].get("kind") in (convoys.KIND, goals.KIND):
            return options[0]  # the safest convoy route; the first goals in the document's order
        retreats = [o for o in options if o.startswith("retreat to ")]
        if "press attack" in options and retreats:
            setup = battle_at(game, game.d["battle"]["where"], opened=True)
            if setup is not None and attacker_chances(setup)[0] < PRESS:
                return retreats[0]
        return default_policy(game, options)

    def bot_choice(self, game: AAGame, seat: str, options: list[str]) -> str | None:
        """The heuristic bot at the variant's own decisions: lend-lease, diplomacy, air
        interdiction, the atomic bomb (:mod:`.bot`), then attacks on neutrals
        (:meth:`neutral_attack_choice`)."""
        found = bot.choose(game, self.tables, options)
        return found if found is not None else self.neutral_attack_choice(game, seat, options)

    def neutral_attack_choice(self, game: AAGame, seat: str, options: list[str]) -> str | None:
        """The heuristic bot and neutrals (S3:L242): it makes its other combat moves first (the
        base policy's choice without the neutrals); when that choice is ``done``, it attacks the
        neutral with the most income among those where the base calculator gives everything
        it could still send at least the base policy's ``WORTH`` against the neutral's army
        (:func:`.neutrals.attack_odds`); the moves follow as into any enemy land. The income is
        the attacked territory's own (Rio de Oro's none: attacking it hands Spain to the enemy)."""
        from grandstrategy.axis_allies.game.policy import WORTH, choose

        attacks = [o for o in options if o.startswith(neutrals.OPTION + " ")]
        if not attacks:
            return None
        base = choose(game, seat, [o for o in options if o not in attacks])
        if base != "done":
            return base
        best: tuple[float, str] | None = None
        for option in attacks:
            row = neutrals.record(self.tables, option.split()[2])
            income = row.income if row is not None else 0
            if income <= 0:
                continue
            odds = neutrals.attack_odds(game, self.tables, option.split()[2])
            if odds >= WORTH and (best is None or income * odds > best[0]):
                best = (income * odds, option)
        return best[1] if best is not None else base

    def victory_city(self, territory: str) -> bool:
        """Whether ``territory`` is one of the variant's victory cities (repair, S3:L244)."""
        return territory in self.points

    def repairs_at_end_of_turn(self) -> bool:
        """Two-hit units are repaired at the start of a turn, near a friendly IC or VC
        (S3:L244, L248; :func:`.turns.begin_turn`), not at the end as Revised."""
        return False

    # ---- movement limits ------------------------------------------------------------------

    def air_passable(self, game: Board, territory: str) -> bool:
        """Aircraft fly over a neutral 2 or more steps toward their team (S3:L242), never over
        extreme terrain (Himalaya), over a neutral that joined a team like any land; US and UK
        aircraft not over Soviet land while xenophobia holds (S3:L218, L234)."""
        t = self.module.territories[territory]
        if self.xenophobic(game, territory):
            return False
        if not t.impassable or neutrals.owned_neutral(game, territory):
            return True
        position: int | None = game.d["aarhe"]["neutrals"].get(territory)
        if position is None or territory in self.extreme:
            return False
        sign = 1 if game.alliance(game.power) == "allies" else -1
        return position * sign >= self.overflight

    def land_passable(self, game: Board, territory: str) -> bool:
        """Land units enter a neutral 4 or more steps toward their team (S3:L242), never extreme
        terrain; entering changes no control (AH-G5). A neutral that joined a team (attacked,
        :mod:`.neutrals`) is land like any other."""
        if not self.module.territories[territory].impassable or neutrals.owned_neutral(game, territory):
            return True
        position: int | None = game.d["aarhe"]["neutrals"].get(territory)
        if position is None or territory in self.extreme:
            return False
        sign = 1 if game.alliance(game.power) == "allies" else -1
        return position * sign >= self.land_entry

    def ownable(self, game: Board, territory: str) -> bool:
        """A neutral that joined a team after an attack has an owner (S3:L242)."""
        row = neutrals.record(self.tables, territory)
        return not self.module.territories[territory].impassable or (row is not None and not row.extreme)

    def in_combat_range(self, game: Board, unit: str, origin: str, target: str) -> bool:
        """An aircraft flies at most half its movement to its target (S3:L216)."""
        reach = game.movement(game.power, unit) // 2

        def neighbours(t: str) -> list[str]:
            return [n for n in self.module.territories[t].neighbours if self.air_passable(game, n)]

        return target in bfs_distances([origin], neighbours, reach)

    def flight_range(self, game: Board, unit: str, moves: int, *, combat: bool) -> int:
        """Into battle or on a raid, at most half the movement (S3:L216, AH decision: raids are
        combat flights). In non-combat move an aircraft that has not flown this turn has its
        ferry range, two more than its movement (S3:L232; the split into two halves is
        :meth:`flight_reach`); one back from a battle or raid has only what is left of its
        half (S3:L216: half on the way back)."""
        full = game.movement(game.power, unit)
        if combat:
            return min(moves, full // 2)
        return full + FERRY_BONUS if moves >= full else moves

    def moves_after_flight(self, game: Board, unit: str, moves: int, distance: int, *, combat: bool) -> int:
        """After a flight into battle or on a raid, at most half the movement is left to land
        (S3:L216); a non-combat flight is the aircraft's one ferry flight of the turn, unused
        range is not kept (S3:L232)."""
        if combat:
            return min(moves - distance, game.movement(game.power, unit) // 2)
        return 0

    def flight_reach(
        self, game: Board, unit: str, origin: str, moves: int, *, combat: bool
    ) -> dict[str, int]:
        """A ferry flight reaches only the places of :meth:`ferry_reach` (S3:L232)."""
        reach = super().flight_reach(game, unit, origin, moves, combat=combat)
        if combat or moves < game.movement(game.power, unit):
            return reach
        ferry = self.ferry_reach(game, unit, origin)
        return {t: d for t, d in reach.items() if t in ferry}

    def ferry_reach(self, game: Board, unit: str, origin: str) -> set[str]:
        """A non-combat flight goes at most half the ferry range (movement + 2, rounded down) to
        a friendly land territory where aircraft may land and at most half from there
        (S3:L232); a flight within half needs no stop."""
        half = (game.movement(game.power, unit) + FERRY_BONUS) // 2

        def neighbours(t: str) -> list[str]:
            return [n for n in self.module.territories[t].neighbours if self.air_passable(game, n)]

        first = bfs_distances([origin], neighbours, half)
        stops = [t for t in first if not game.is_sea(t) and game.landing_ok(t)]
        return {*first, *bfs_distances(stops, neighbours, half)}

    def in_ferry_range(self, game: Board, unit: str, origin: str, target: str) -> bool:
        """Whether a ferry flight from ``origin`` reaches ``target`` (:meth:`ferry_reach`)."""
        return target in self.ferry_reach(game, unit, origin)

    def xenophobic(self, game: Board, territory: str) -> bool:
        """Whether Stalinist xenophobia closes ``territory`` to the power on move (S3:L218, L234):
        the Soviet Union's own land and the four named territories, to US and UK units, until the
        Axis has taken Russia."""
        xeno = self.tables.map.xenophobia
        if game.power not in xeno.closed_to or game.d["aarhe"]["russia_fallen"]:
            return False
        t = self.module.territories[territory]
        return t.type.value == "land" and (t.original_owner == xeno.owner or territory in xeno.also)

    def subs_pass_destroyers(self, game: Board) -> bool:
        """Submarines may go through hostile sea zones in combat move (S3:L218; the hunters'
        search is :mod:`.transit`'s); in non-combat move destroyers stop them as in Revised."""
        return bool(game.d["phase"] == "combat-move")

    def may_enter(self, game: Board, unit: str, origin: str, target: str, *, combat: bool) -> bool:
        power = game.power
        aarhe = game.d["aarhe"]
        if self.xenophobic(game, target):
            return False  # S3:L218, L234
        apart = self.tables.map.non_cooperation
        if not aarhe["axis_capital_taken"]:  # S3:L218
            others = apart.from_ if power in apart.apart else apart.apart if power in apart.from_ else []
            if any(split(s)[0] in others for s in game.units(target)):
                return False
        if (
            combat
            and self.stats[unit].domain == "air"
            and not self.in_combat_range(game, unit, origin, target)
        ):
            return False  # S3:L216: half the movement to reach the target
        if not lendlease.room_for_cargo(game, self.tables, unit, target):
            return False  # a laden lend-lease transport carries nothing else (S3:L234)
        room = self.entry_room(game, target)
        return room is None or room > 0  # S3:L246

    def entry_room(self, game: Board, target: str) -> int | None:
        """How many more units of the power on move's team a miniature territory takes (S3:L246:
        3 of a team); ``None`` elsewhere. A move of several units or an airlift must fit it."""
        if not any(m.territory == target and m.kind == "miniature" for m in self.tables.map.terrain):
            return None
        team = sum(
            n
            for s, n in game.units(target).items()
            if game.friendly(game.power, split(s)[0]) and game.stats[split(s)[1]].combat
        )
        return max(0, self.tables.map.miniature_limit.value - team)

    def book_raid_damage(self, game: Board, where: str, owner: str, damage: int) -> bool:
        """Economic attacks cut the territory's next income, never below 0; at a capital the
        excess comes off the stored IPCs at once (S3:L230)."""
        books = game.d["aarhe"]["damage"]
        value = neutrals.territory_income(game, self.tables, where)  # a joined neutral's by the table
        booked = min(damage, max(0, value - books.get(where, 0)))
        books[where] = books.get(where, 0) + booked
        excess = damage - booked
        taken = 0
        if excess and self.module.territories[where].capital == owner:
            taken = min(excess, game.d["bank"][owner])
            game.d["bank"][owner] -= taken
        game.log(f"economic attack on {where}: next income {booked} lower, {taken} stored IPCs lost")
        return True

    def rocket_launchers(self, game: Board, power: str) -> dict[str, int]:
        """With Rockets every ID fires one rocket a turn (S3:L238): the power's ID units that
        have not moved, the 3 built into each of its factories and the 1 of each victory city it
        holds (S3:L246), counted per land territory."""
        table = combat_tables()
        built_in = table.built_in_ids
        ready: dict[str, int] = {}
        for where, stacks in game.d["units"].items():
            if game.is_sea(where):
                continue
            count = 0
            for stack, n in stacks.items():
                owner, unit, moves, _ = split(stack)
                if owner != power:
                    continue
                if table.role(unit) == "ID" and moves > 0:
                    count += n
                if game.stats[unit].factory:
                    count += n * int(built_in["factory"])
            if count:
                ready[where] = count
        for where in self.points:
            if game.owner(where) == power:
                ready[where] = ready.get(where, 0) + int(built_in["victory_city"])
        return ready

    def liberates(self, captor: str, original: str) -> bool:
        """US and UK land the Soviet Union liberates stays Soviet (S3:L218, L234)."""
        xeno = self.tables.map.xenophobia
        return not (captor == xeno.owner and original in xeno.closed_to)

    # ---- victory and economy --------------------------------------------------------------

    def victory_points(self, territory: str) -> int:
        """A territory's VCP (S3:L208-212)."""
        return self.points.get(territory, 0)

    def victory_cities_needed(self, alliance: str) -> int:
        return next(t.points for t in self.tables.victory.city_targets if t.alliance == alliance)

    def income(self, ipc_owned: int, capital_held: bool) -> int:
        """Not used by the variant's turn (its Collect Income is :func:`.turns.collect_income`)."""
        return ipc_owned

    def ids_on_side(self, game: Board, where: str) -> int:
        """IDs at ``where`` not yet deployed: they do not fire (S3:L236)."""
        return deployment.on_side(game, where)

    def naval_fighters(self, game: Board) -> bool:
        """Whether only naval fighters stay on carriers at sea (S3:L218, L226): when the game plays
        the optional units."""
        return optional.on(game, "optional_units")

    def carrier_cost(self, game: Board, unit: str) -> int:
        """With the optional units in play only their carrier aircraft, the naval fighter, lands
        on carriers (S3:L218, AH-O2): the Revised fighter then takes no carrier room, so it
        neither lands on one, rides one as cargo nor is placed on one; off, as Revised."""
        cost = self.stats[unit].carrier_cost
        if cost and unit not in optional.unit_ids() and self.naval_fighters(game):
            return 0
        return cost

    def purchasable(self) -> tuple[str, ...]:
        """The Revised units on sale (a bid too); the optional units are offered by
        :func:`.turns.purchase_options` only in a game that plays them (S3:L248)."""
        extra = optional.unit_ids()
        return tuple(u for u in super().purchasable() if u not in extra)

    def production_limit(self, territory_ipc: int) -> int:
        """IPCs an IC may spend per turn: 4 x the territory's income (S3:L236)."""
        return self.tables.economy.production_cap_factor.value * territory_ipc

    def movement(self, unit: str, techs: Sequence[str]) -> int:
        """Long Range Aircraft: +2 for every air unit (S3:L238)."""
        stats = self.stats[unit]
        return stats.movement + (2 if stats.domain == "air" and "long-range-aircraft" in techs else 0)

    def bomber_dice(self, unit: str, techs: Sequence[str]) -> int:
        """Heavy Bomber: two dice in combat and in raids (S3:L238; the better one counts, as LHTR)."""
        return 2 if self.stats[unit].strategic_bomber and "heavy-bomber" in techs else 1

    def raid_bonus(self, techs: Sequence[str]) -> int:
        return 0

    def defence(self, unit: str, techs: Sequence[str]) -> int:
        """Advanced Submarine: +1 (S3:L238); jets are the variant combat's (dogfight values)."""
        stats = self.stats[unit]
        return stats.defence + (1 if stats.sub and "advanced-submarine" in techs else 0)

    def attack_value(self, unit: str, supported: bool, techs: Sequence[str] = ()) -> int:
        stats = self.stats[unit]
        value = stats.attack + (1 if stats.sub and "advanced-submarine" in techs else 0)
        return value + 1 if supported and stats.supportable else value

    def bombards(self, unit: str, techs: Sequence[str]) -> bool:
        return self.stats[unit].bombard
