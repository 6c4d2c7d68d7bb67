"""Retreats and the end of a cycle in the variant's battle machine.

:class:`RetreatSteps` ends land cycles (S3:L220-222): the attacker's press-on-or-retreat, the
defender's retreat and havens, capture, defending aircraft that must leave, and the battle's
finish; and ends naval ones: aircraft out, submerging, sea retreats and the chase (S3:L224-230).
"""

from __future__ import annotations

from typing import Any

from grandstrategy.axis_allies.aarhe.combat.cycle import (
    CycleBase,
)
from grandstrategy.axis_allies.game.board import key, split
from grandstrategy.core.graph import bfs_distances


class RetreatSteps(CycleBase):
    """Retreat and end-of-cycle steps of :class:`~.machine.CycleRun`."""

    # ---- end of a land cycle (S3:L220-222) ---------------------------------------------------

    def step_land_end(self) -> None:
        """Who must go, who may go: the attacker decides first, then the defender (S3:L220-222)."""
        att, dfn = self.side(True), self.side(False)
        if not att or not dfn:
            self.finish()
            return
        if not self.land_units(True):
            self.withdraw_air(True)  # only the defence has land units: the attacker must go
            self.finish()
            return
        if not self.land_units(False):
            self.b["queue"] = ["defence-air-must-go"]
            return
        self.ask_attacker()

    def ask_attacker(self) -> None:
        """Press on, or retreat some or all units (S3:L222): everything, one land unit type, or the
        aircraft alone (which stay above the place and land in non-combat move)."""
        origins = self.attacker_retreats()
        options = ["press attack", *(f"retreat to {t}" for t in origins)]
        movable = {u: n for u, n in self.movable().items() if n}
        if len(movable) > 1:
            options += [f"retreat {u} to {t}" for u in sorted(movable) for t in origins]
        if self.air(True):
            options.append("retreat aircraft")
        self.ask(self.b["attacker"], "land-attacker", options)

    def movable(self) -> dict[str, int]:
        """The attacker's land units by type that may retreat (not those landed from the sea)."""
        staying = self.landed()
        result: dict[str, int] = {}
        for _, _, unit, _, n in self.side(True):
            if self.g.stats[unit].domain == "land":
                result[unit] = result.get(unit, 0) + n
        return {u: n - staying.get(u, 0) for u, n in result.items() if n > staying.get(u, 0)}

    def attacker_retreats(self) -> list[str]:
        movable = self.land_units(True) > sum(self.landed().values())
        if not movable:
            return []
        return [
            o
            for o in self.b["origins"]
            if not self.g.is_sea(o) and self.g.friendly(self.b["attacker"], self.g.owner(o))
        ]

    def landed(self) -> dict[str, int]:
        here: dict[str, int] = {}
        for _, _, unit, _, n in self.side(True):
            here[unit] = here.get(unit, 0) + n
        return {
            u: min(n, here.get(u, 0))
            for u, n in sorted(self.b["amphibious"].items())
            if min(n, here.get(u, 0))
        }

    def answer_land_attacker(self, option: str) -> None:
        self.b["ask"] = None
        words = option.split()
        if option == "retreat aircraft":
            self.withdraw_air(True)
        elif len(words) == 4 and words[0] == "retreat" and words[2] == "to":
            self.attacker_retreat(words[3], only=words[1])
            if not self.land_units(True):
                self.withdraw_air(True)  # no land units left: the aircraft must go too
                self.finish()
                return
            self.ask_attacker()
            return
        elif option.startswith("retreat to "):
            self.attacker_retreat(option.split()[-1])
            if not self.side(True):
                self.finish()
                return
        self.ask_defender_retreat()

    def attacker_retreat(self, to: str, only: str | None = None) -> None:
        """The attacker's units (``only`` one land type) leave for a place they came from, but
        those landed from the sea (S3:L222); aircraft stay above the battle and land in non-combat
        move."""
        staying = self.landed()
        for stack, _, unit, damage, n in self.side(True):
            if only is not None and unit != only:
                continue
            stay = min(n, staying.get(unit, 0))
            staying[unit] = staying.get(unit, 0) - stay
            if n - stay <= 0:
                continue
            if self.g.stats[unit].domain == "air":
                self.aside(stack, n - stay)
                continue
            self.g.add(self.where, stack, stay - n)
            self.g.add(to, key(self.b["attacker"], unit, 0, damage), n - stay)
        self.g.log(f"retreats from {self.where} to {to}")

    def withdraw_air(self, attacker: bool) -> None:
        for stack, _, unit, _, n in self.side(attacker):
            if self.g.stats[unit].domain == "air":
                self.aside(stack, n)

    def defender_havens(self, air: bool) -> list[str]:
        """Where the defence's land units (adjacent friendly land) or aircraft (friendly land
        within 2) may retreat (S3:L222); never into a miniature territory the retreating units
        would take past the team's limit (S3:L246)."""
        g = self.g
        territories = g.module.territories
        chooser = self.b["chooser"]
        going = self.air(False) if air else self.land_units(False)

        def room(t: str) -> bool:
            if t not in self.t.miniature:
                return True
            team = sum(
                n
                for s, n in g.units(t).items()
                if g.friendly(chooser, split(s)[0]) and g.stats[split(s)[1]].combat
            )
            return team + going <= self.t.miniature_limit

        def passable(t: str) -> bool:
            return not territories[t].impassable or g.owner(t) is not None  # a neutral that joined

        def neighbours(t: str) -> list[str]:
            return [n for n in territories[t].neighbours if passable(n)]

        reach = bfs_distances([self.where], neighbours, 2 if air else 1)
        return sorted(
            t
            for t, d in reach.items()
            if d > 0
            and not g.is_sea(t)
            and g.friendly(chooser, g.owner(t))
            and t not in g.d["battles"]
            and room(t)
        )

    def ask_defender_retreat(self) -> None:
        if not self.side(False) or not self.side(True):
            self.b["queue"] = []
            self.finish()
            return
        land = self.defender_havens(False) if self.land_units(False) else []
        options = ["hold", *(f"retreat to {t}" for t in land)]
        if self.air(False):
            options += [f"retreat aircraft to {t}" for t in self.defender_havens(True)]
        if len(options) == 1:
            self.after_defender_choice(False)
            return
        self.ask(self.b["chooser"], "land-defender", options)

    def answer_land_defender(self, option: str) -> None:
        self.b["ask"] = None
        if option == "hold":
            self.after_defender_choice(bool(self.b["retreating"]))
            return
        to = option.split()[-1]
        tanks = self.count(False, "ARM", "HARM")
        air = option.startswith("retreat aircraft")
        for stack, _, unit, _, n in self.side(False):
            domain = self.g.stats[unit].domain
            if (domain == "air") == air and (air or domain == "land"):
                self.aside(stack, n)  # out of the battle, counted aside until it arrives
                book = self.b["retreating"].setdefault(to, {})
                book[stack] = book.get(stack, 0) + n
        if not air:
            self.b["capture_dice"] = max(0, self.count(True, "ARM", "HARM") - tanks)
        self.g.log(f"the defence retreats from {self.where} to {to}")
        self.ask_defender_retreat() if self.side(False) else self.after_defender_choice(True)

    def after_defender_choice(self, retreated: bool) -> None:
        """Capture dice for a retreating army, then the retreat itself; then the next cycle."""
        n = int(self.b.pop("capture_dice", 0))
        need = self.t.need("capture")
        for _ in range(n):
            self.roll(
                f"{self.b['attacker']} armour chases the retreating army, captures on {need} or less",
                need,
                "capture",
            )
        self.b["queue"] = ["capture-end"]

    def eff_capture(self, face: int, need: int, arg: Any) -> None:
        if face <= need:
            self.b["captured"] = self.b.get("captured", 0) + 1

    def step_capture_end(self) -> None:
        """The defence gives infantry or artillery of the retreating army for each capture (S3:L222)."""
        owed = int(self.b.get("captured", 0))
        candidates = sorted(
            {
                f"lose {split(s)[0]} {split(s)[1]} retreating to {to}"
                for to, stacks in self.b["retreating"].items()
                for s in stacks
                if self.role(split(s)[1]) in ("INF", "ART")
            }
        )
        if owed and candidates:
            if len(candidates) == 1:
                self.answer_captured(candidates[0], ask=False)
                return
            self.ask(self.b["chooser"], "captured", candidates)
            return
        self.b["captured"] = 0
        for to, stacks in sorted(self.b["retreating"].items()):
            for stack, n in sorted(stacks.items()):
                self.release(stack, n, to)
        self.b["retreating"] = {}
        if not self.side(False):
            self.finish()
            return
        if not self.land_units(False):
            self.b["queue"] = ["defence-air-must-go"]
            return
        self.b["queue"] = []

    def answer_captured(self, option: str, *, ask: bool = True) -> None:
        self.b["ask"] = None
        words = option.split()
        owner, unit, to = words[1], words[2], words[-1]
        stacks = self.b["retreating"][to]
        stack = next(s for s in sorted(stacks) if split(s)[:2] == (owner, unit))
        stacks[stack] -= 1
        if not stacks[stack]:
            del stacks[stack]
        self.release(stack, 1, None)
        self.b["captured"] -= 1
        self.g.log(f"{self.b['attacker']} captures a retreating {owner} {unit}")
        self.b["queue"] = ["capture-end"]

    def step_defence_air_must_go(self) -> None:
        """Only the attacker has land units left: the defence's aircraft must retreat (S3:L220)."""
        havens = self.defender_havens(True)
        if not self.air(False):
            self.finish()
            return
        if len(havens) > 1:
            self.ask(self.b["chooser"], "defence-air", [f"retreat aircraft to {t}" for t in havens])
            return
        for stack, _, _, _, n in self.side(False):
            self.g.add(self.where, stack, -n)
            if havens:
                owner, unit, _, damage = split(stack)
                self.arrive(havens[0], key(owner, unit, 0, damage), n)
        self.finish()

    def answer_defence_air(self, option: str) -> None:
        self.b["ask"] = None
        to = option.split()[-1]
        for stack, _, _, _, n in self.side(False):
            owner, unit, _, damage = split(stack)
            self.g.add(self.where, stack, -n)
            self.arrive(to, key(owner, unit, 0, damage), n)
        self.finish()

    def step_finish(self) -> None:
        self.finish()

    def step_defence_air_out(self) -> None:
        havens = self.defender_havens(True)
        if len(havens) > 1:
            self.ask(self.b["chooser"], "air-out", [f"retreat aircraft to {t}" for t in havens])
            return
        self.land_air_out(havens[0] if havens else None)

    def land_air_out(self, to: str | None) -> None:
        for stack, n in sorted(self.b.pop("air_out", {}).items()):
            self.release(stack, n, to)

    def answer_air_out(self, option: str) -> None:
        self.b["ask"] = None
        self.land_air_out(option.split()[-1])

    def step_sea_submerge(self) -> None:
        if not self.side(True) or not self.side(False):
            self.finish()
            return
        self.b["submerge_queue"] = [True, False]
        self.next_submerge()

    def next_submerge(self) -> None:
        while self.b["submerge_queue"]:
            attacker = self.b["submerge_queue"][0]
            if self.count(attacker, "SS"):
                self.ask(
                    self.power_of(attacker),
                    "submerge",
                    ["keep submarines in the battle", "submerge submarines"],
                )
                return
            self.b["submerge_queue"].pop(0)
        if not self.side(True) or not self.side(False):
            self.finish()
            return
        zones = self.sea_havens(True)
        self.ask(
            self.b["attacker"], "sea-attacker", ["press on", "break off", *(f"retreat to {z}" for z in zones)]
        )

    def answer_submerge(self, option: str) -> None:
        self.b["ask"] = None
        attacker = self.b["submerge_queue"].pop(0)
        if option == "submerge submarines":
            for stack, _, unit, _, n in self.side(attacker):
                if self.role(unit) == "SS":
                    self.aside(stack, n)
            self.g.log(f"submarines submerge at {self.where}")
        self.next_submerge()

    def sea_havens(self, attacker: bool) -> list[str]:
        """Adjacent sea zones without enemy warships (S3:L226)."""
        power = self.power_of(attacker)
        return sorted(
            z
            for z in self.g.module.sea_neighbours(self.where)
            if not self.g.enemy_units(power, z, combat_only=True)
        )

    def sea_retreat(self, attacker: bool, to: str) -> None:
        for stack, owner, unit, damage, n in self.side(attacker):
            if self.g.stats[unit].domain == "air":
                if attacker:
                    self.aside(stack, n)
                continue
            self.g.add(self.where, stack, -n)
            self.g.add(to, key(owner, unit, 0, damage), n)
        if attacker:
            for stack in self.g.cargo(self.where, self.b["attacker"]):
                self.g.add(self.where, stack, -1)
                self.g.add(to, stack)
        self.g.drop_cargo(self.where)
        self.g.log(f"{'attacking' if attacker else 'defending'} ships retreat from {self.where} to {to}")

    def answer_sea_attacker(self, option: str) -> None:
        self.b["ask"] = None
        if option.startswith("retreat to "):
            self.sea_retreat(True, option.split()[-1])
            self.finish()
            return
        self.b["attacker_says"] = option
        zones = self.sea_havens(False)
        self.ask(
            self.b["chooser"], "sea-defender", ["remain", "break off", *(f"retreat to {z}" for z in zones)]
        )

    def answer_sea_defender(self, option: str) -> None:
        """The break-off table (S3:L226): both break off, the battle ends with both in the zone; the
        attacker breaks off but the defence remains, another cycle; the attacker presses on and
        the defence breaks off, the attacker may still break off or chase."""
        self.b["ask"] = None
        says = self.b.pop("attacker_says")
        if option.startswith("retreat to "):
            self.sea_retreat(False, option.split()[-1])
            self.finish()
            return
        if option == "break off" and says == "break off":
            self.g.log(f"both fleets break off at {self.where}")
            self.finish()
            return
        if option == "break off":
            self.ask(self.b["attacker"], "chase", ["chase", "break off"])
            return
        self.b["queue"] = []

    def answer_chase(self, option: str) -> None:
        self.b["ask"] = None
        if option == "break off":
            self.finish()
            return
        self.b["queue"] = []
