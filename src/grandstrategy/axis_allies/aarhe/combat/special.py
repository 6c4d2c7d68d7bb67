"""The variant's special combats as steps of the same machine: fire that happens outside a battle.

Strait interdiction (S3:L232), the ASW search against a submarine passing through (S3:L218),
interception of aircraft flying over (S3:L216), the interdiction dice of units moving out of or
into a territory under air interdiction (S3:L230), the atomic bomb (S3:L238) and Defensive Air
Support joining a battle from its second cycle (S3:L230). Each opens a short battle in
``d["battle"]`` (``"machine": "aarhe"``, a ``kind``): its questions and dice go through the engine
like any battle's; its result is left in ``d`` for the turn layer that moves the units.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from grandstrategy.axis_allies.aarhe.combat.cycle import cycle_records
from grandstrategy.axis_allies.aarhe.combat.machine import ESCORT, CycleRun, _name, _techs
from grandstrategy.axis_allies.game.board import split
from grandstrategy.axis_allies.game.combat import Combat


def _battle(
    game: Combat, kind: str, where: str, chooser: str, queue: list[str], **extra: Any
) -> dict[str, Any]:
    battle: dict[str, Any] = {
        "machine": "aarhe",
        "kind": kind,
        "where": where,
        "attacker": game.power,
        "chooser": chooser,
        "origins": [],
        "amphibious": {},
        "bombard": [],
        "cycle": 1,
        **cycle_records(queue),
        **extra,
    }
    game.d["battle"] = battle
    return battle


class SpecialRun(CycleRun):
    """The steps of the special combats, on top of the battle cycles."""

    def ids(self) -> int:
        """Over a territory flown over, the defence's fighters act as IDs (S3:L216)."""
        if self.b.get("kind") == "overflight":
            return int(self.b["interceptors"])
        return super().ids()

    def next_cycle(self) -> None:
        super().next_cycle()
        if self.b["cycle"] == 2:
            self.support_joins()

    # ---- Defensive Air Support (S3:L230) ------------------------------------------------------

    def support_joins(self) -> None:
        """Aircraft declared in ``d["aarhe_support"][where]`` join the defence from cycle 2."""
        joined = []
        for stack, origin, n in self.g.d.get("aarhe_support", {}).pop(self.where, []):
            here = min(n, self.g.units(origin).get(stack, 0))
            if here:
                self.g.add(origin, stack, -here)
                self.g.add(self.where, stack, here)
                joined.append([stack, origin, here])
                self.g.log(f"{here} {split(stack)[1]} from {origin} support the defence of {self.where}")
        self.b["support"] = joined

    def finish(self) -> None:
        """Supporting aircraft go back where they came from if it is still friendly (S3:L230)."""
        for stack, origin, n in self.b.pop("support", []):
            here = min(n, self.g.units(self.where).get(stack, 0))
            if here and self.g.friendly(split(stack)[0], self.g.owner(origin)):
                self.g.add(self.where, stack, -here)
                self.g.add(origin, stack, here)
        super().finish()

    def step_special_end(self) -> None:
        kind = self.b["kind"]
        getattr(self, f"end_{kind}")()
        self.b["queue"] = []
        self.g.d["battle"] = None

    # ---- strait interdiction (S3:L232) --------------------------------------------------------

    def step_strait_aim(self) -> None:
        targets = sorted(t for t in self.b["targets"] if self.units_of(t, "air"))
        if targets:
            self.start_aim(False, ["battery"] * int(self.b["shots"]), targets, "strait")

    def step_strait_fire(self) -> None:
        need = self.t.need("strait")
        for _, target in self.take_aims():
            self.roll(
                f"strait battery fires at a {_name(target)}, hits on {need} or less",
                need,
                "target",
                [True, target, False],
            )

    def end_strait(self) -> None:
        self.g.log(f"strait fire at ships in {self.where} is over")

    # ---- submarine transit (S3:L218) ----------------------------------------------------------

    def step_transit_ask(self) -> None:
        hunters = self.count(False, *ESCORT)
        asked = int(self.b.get("asked", 0))
        if asked < hunters:
            self.ask(self.b["chooser"], "transit", ["search for a passing submarine", "let it pass"])

    def answer_transit(self, option: str) -> None:
        self.b["ask"] = None
        self.b["asked"] = int(self.b.get("asked", 0)) + 1
        if option.startswith("search"):
            self.b["searches"] = int(self.b.get("searches", 0)) + 1
        self.b["queue"].insert(0, "transit-ask")

    def step_transit_roll(self) -> None:
        need = self.t.need("asw_search") + self.t.need("transit_search_modifier", "value")
        if "advanced-asw" in _techs(self.g, self.b["chooser"]):
            need += int(self.t.technologies["advanced_asw"]["search_modifier"])
        if "advanced-submarine" in _techs(self.g, self.b["attacker"]):
            need += int(self.t.technologies["advanced_submarine"]["search_modifier"])
        for _ in range(int(self.b.get("searches", 0))):
            self.roll(f"hunter seeks a passing submarine, detects on {need} or less", need, "transit")

    def eff_transit(self, face: int, need: int, arg: Any) -> None:
        if face <= need:
            self.b["detected"] = min(int(self.b.get("detected", 0)) + 1, int(self.b["subs"]))

    def end_transit(self) -> None:
        detected = int(self.b.get("detected", 0))
        self.g.d["aarhe_transit"] = {"zone": self.where, "detected": detected}
        self.g.log(f"{detected} passing submarine(s) detected in {self.where}")

    # ---- overflight interception (S3:L216) ----------------------------------------------------

    def end_overflight(self) -> None:
        """Aircraft turned back return to their origin; the survivors are reported (and put back
        at the origin) for the move to go on."""
        origin = self.b["origin"]
        survivors: dict[str, int] = {}
        for stack, _, unit, _, n in self.side(True):
            if self.g.stats[unit].domain == "air" and stack in self.b["flyers"]:
                take = min(n, int(self.b["flyers"][stack]))
                self.g.add(self.where, stack, -take)
                self.g.add(origin, stack, take)
                survivors[stack] = take
        turned = dict(self.b["submerged"])
        for stack, n in turned.items():
            self.g.add(origin, stack, n)
        self.b["submerged"] = {}
        self.g.d["aarhe_overflight"] = {"survivors": survivors, "turned_back": turned}

    # ---- air interdiction dice (S3:L230) ------------------------------------------------------

    def step_interdiction_roll(self) -> None:
        stop = self.t.need("interdiction", "stop")
        for stack, n in sorted(self.b["movers"].items()):
            for index in range(int(n)):
                unit = _name(":".join(split(stack)[:2]))
                for _ in range(int(self.b["bombers"])):
                    self.roll(
                        f"interdiction die for a moving {unit}: 1 destroys, 2 stops it",
                        stop,
                        "interdiction",
                        [stack, index],
                    )

    def eff_interdiction(self, face: int, need: int, arg: list[Any]) -> None:
        if face > need:
            return
        tag = f"{arg[0]}#{arg[1]}"
        worst = self.b.setdefault("fate", {})
        fate = "destroyed" if face <= self.t.need("interdiction", "destroy") else "stopped"
        if worst.get(tag) != "destroyed":
            worst[tag] = fate

    def end_interdiction(self) -> None:
        destroyed: dict[str, int] = {}
        stopped: dict[str, int] = {}
        for tag, fate in sorted(self.b.get("fate", {}).items()):
            stack = tag.split("#")[0]
            book = destroyed if fate == "destroyed" else stopped
            book[stack] = book.get(stack, 0) + 1
        for stack, n in destroyed.items():
            self.g.add(self.where, stack, -min(n, self.g.units(self.where).get(stack, 0)))
        self.g.d["aarhe_interdiction"] = {"destroyed": destroyed, "stopped": stopped}

    def end_interdiction_attack(self) -> None:
        """After their one cycle the bombers fly back where they came from (S3:L230)."""
        origin = self.b["origin"]
        for stack, _, unit, _, n in self.side(True):
            if self.g.stats[unit].domain == "air":
                self.g.add(self.where, stack, -n)
                self.g.add(origin, stack, n)
        for stack, n in sorted(self.b["submerged"].items()):
            self.g.add(origin, stack, n)
        self.b["submerged"] = {}
        self.g.log(f"bombers interdict {self.where} and return to {origin}")

    # ---- atomic bomb (S3:L238) ----------------------------------------------------------------

    def step_atomic_income(self) -> None:
        self.roll("atomic bomb: the territory loses the die in income for good", 6, "atomic-income")

    def eff_atomic_income(self, face: int, need: int, arg: Any) -> None:
        losses = self.g.d.setdefault("aarhe_atomic_loss", {})
        losses[self.where] = int(losses.get(self.where, 0)) + face

    def step_atomic_group(self) -> None:
        """The defence splits its units into (territory IPC / 3, rounded down, at least 1) groups."""
        if "groups" not in self.b:
            ipc = self.g.module.territories[self.where].ipc or 0
            self.b["groups"] = [{} for _ in range(max(1, ipc // 3))]
            self.b["placed"] = 0
        units = [f"{o}:{u}" for _, o, u, _, n in self.side(False) for _ in range(n)]
        placed = int(self.b["placed"])
        if placed >= len(units):
            return
        groups = self.b["groups"]
        target = units[placed]
        if len(groups) == 1:
            for unit in units:
                groups[0][unit] = groups[0].get(unit, 0) + 1
            self.b["placed"] = len(units)
            return
        options = [f"put {_name(target)} in group {k + 1}" for k in range(len(groups))]
        self.ask(self.b["chooser"], "atomic-group", options)

    def answer_atomic_group(self, option: str) -> None:
        self.b["ask"] = None
        words = option.split()
        group = self.b["groups"][int(words[-1]) - 1]
        unit = f"{words[1]}:{words[2]}"
        group[unit] = group.get(unit, 0) + 1
        self.b["placed"] = int(self.b["placed"]) + 1
        self.b["queue"].insert(0, "atomic-group")

    def step_atomic_pick(self) -> None:
        groups = self.b["groups"]
        if len(groups) == 1:
            self.b["struck"] = 0
            return
        options = [f"strike group {k + 1}" for k in range(len(groups))]
        self.ask(self.b["attacker"], "atomic-pick", options)

    def answer_atomic_pick(self, option: str) -> None:
        self.b["ask"] = None
        self.b["struck"] = int(option.split()[-1]) - 1

    def step_atomic_fire(self) -> None:
        need = self.t.need("atomic_unit")
        for unit, n in sorted(self.b["groups"][self.b["struck"]].items()):
            for _ in range(n):
                self.roll(
                    f"atomic blast at a {_name(unit)}, destroys on {need} or less", need, "atomic-kill", unit
                )

    def eff_atomic_kill(self, face: int, need: int, unit: str) -> None:
        if face > need:
            return
        owner, kind = unit.split(":")
        for stack, o, u, _, _ in self.side(False):
            if (o, u) == (owner, kind):
                self.g.add(self.where, stack, -1)
                return

    def end_atomic(self) -> None:
        loss = self.g.d.get("aarhe_atomic_loss", {}).get(self.where, 0)
        self.g.log(f"an atomic bomb strikes {self.where}: income -{loss} for good")


# ---- opening the special combats -------------------------------------------------------------


def open_strait_fire(game: Combat, territory: str, zone: str, ships: Sequence[str]) -> None:
    """The holder of ``territory`` fires its 2 dice at the hostile ships (stack keys, now in
    ``zone``) passing its strait; submarines are neither targets nor hit (S3:L232)."""
    holder = game.owner(territory) or ""
    targets = sorted({f"{split(s)[0]}:{split(s)[1]}" for s in ships if not game.stats[split(s)[1]].sub})
    shots = SpecialRun(game).t.need("strait", "dice")
    _battle(
        game,
        "strait",
        zone,
        holder,
        ["strait-aim", "strait-fire", "remove", "special-end"],
        targets=targets,
        shots=shots,
    )
    SpecialRun(game).run()


def open_transit_search(game: Combat, zone: str, subs: int) -> None:
    """Enemy destroyers and cruisers in ``zone`` may each search for one of ``subs`` submarines
    passing through, at -1; ``d["aarhe_transit"]`` says how many were detected (S3:L218)."""
    chooser = game.defence_chooser(zone)
    _battle(game, "transit", zone, chooser, ["transit-ask", "transit-roll", "special-end"], subs=subs)
    SpecialRun(game).run()


def open_overflight(game: Combat, territory: str, origin: str, flyers: Mapping[str, int]) -> None:
    """Enemy fighters in ``territory`` intercept the mover's aircraft ``flyers`` (stacks at
    ``origin``) flying over it, each as an ID (S3:L216, L244): search, then 1 destroys, 2 turns
    back. The aircraft end at ``origin``; ``d["aarhe_overflight"]`` lists survivors to move on."""
    busy: dict[str, int] = {}  # aircraft flying Defensive Air Support this turn do not intercept
    for missions in game.d.get("aarhe_support", {}).values():
        for stack, origin, n in missions:
            if origin == territory:
                busy[stack] = busy.get(stack, 0) + n
    interceptors = 0
    for stack, n in game.stacks(territory):
        owner, unit, _, _ = split(stack)
        stats = game.stats[unit]
        if not game.friendly(game.power, owner) and stats.domain == "air" and not stats.strategic_bomber:
            interceptors += max(0, n - busy.get(stack, 0))
    for stack, n in flyers.items():
        game.add(origin, stack, -n)
        game.add(territory, stack, n)
    queue = ["id-aim", "id-search", "id-strike-aim", "id-strike", "remove", "special-end"]
    _battle(
        game,
        "overflight",
        territory,
        game.defence_chooser(territory),
        queue,
        interceptors=interceptors,
        origin=origin,
        flyers=dict(flyers),
    )
    SpecialRun(game).run()


def open_interdiction_rolls(game: Combat, where: str, movers: Mapping[str, int], bombers: int) -> None:
    """Each unit (stacks at ``where``) moving into or out of a territory under air interdiction
    rolls one die per interdicting bomber: 1 destroys it, 2 stops its move (S3:L230)."""
    _battle(
        game,
        "interdiction",
        where,
        game.defence_chooser(where),
        ["interdiction-roll", "special-end"],
        movers=dict(movers),
        bombers=bombers,
    )
    SpecialRun(game).run()


def open_interdiction_attack(
    game: Combat, power: str, origin: str, target: str, bombers: Mapping[str, int]
) -> None:
    """Air interdiction in the enemy's turn (S3:L230): ``power``'s bombers (stacks at ``origin``)
    make a one-cycle attack on the adjacent ``target``, which has no enemy aircraft; the target's
    IDs fire at them once; then they go back to ``origin``. Bombers cannot attack ships (S3:L220),
    so over a sea zone only the IDs' step and the movement dice (:func:`open_interdiction_rolls`)
    remain."""
    for stack, n in bombers.items():
        game.add(origin, stack, -n)
        game.add(target, stack, n)
    queue = [
        "id-aim",
        "id-search",
        "id-strike-aim",
        "id-strike",
        "air-aim",
        "air-fire",
        "remove",
        "special-end",
    ]
    owner = game.owner(target)
    chooser = owner if owner is not None and not game.friendly(power, owner) else game.power
    battle = _battle(game, "interdiction_attack", target, chooser, queue, origin=origin)
    battle["attacker"] = power
    SpecialRun(game).run()


def open_atomic(game: Combat, territory: str) -> None:
    """A nuclear attack on ``territory`` (S3:L238): a die of permanent income loss, the defence's
    units split into IPC/3 groups, the attacker picks one and each unit in it dies on 5 or less.
    The bomber takes no fire."""
    _battle(
        game,
        "atomic",
        territory,
        game.defence_chooser(territory),
        ["atomic-income", "atomic-group", "atomic-pick", "atomic-fire", "special-end"],
    )
    SpecialRun(game).run()


def declare_support(game: Combat, stack: str, origin: str, target: str, n: int) -> None:
    """Declare Defensive Air Support (S3:L230): ``n`` aircraft of ``stack`` at ``origin`` will
    defend ``target`` from its battle's second cycle and go back afterwards."""
    support = game.d.setdefault("aarhe_support", {}).setdefault(target, [])
    support.append([stack, origin, n])


def settle_retreats(game: Combat) -> list[str]:
    """At the end of the combat phase: units that retreated into a place their side no longer
    holds are lost (S3:L222, L226). Returns where units were lost; clears the record."""
    lost = []
    for to, stack, n in game.d.pop("aarhe_retreats", []):
        owner = split(stack)[0]
        if game.is_sea(to) or game.friendly(owner, game.owner(to)):
            continue
        here = min(n, game.units(to).get(stack, 0))
        if here:
            game.add(to, stack, -here)
            game.log(f"{here} {split(stack)[1]} retreating into {to} are lost")
            lost.append(to)
    return lost


__all__ = [
    "SpecialRun",
    "declare_support",
    "open_atomic",
    "open_interdiction_attack",
    "open_interdiction_rolls",
    "open_overflight",
    "open_strait_fire",
    "open_transit_search",
    "settle_retreats",
]
