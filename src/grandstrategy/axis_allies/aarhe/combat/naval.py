"""The naval cycle of the variant's battle machine (S3:L224-230).

:class:`NavalSteps` runs the sea battle's steps: destroyer screens, submarine fire and wolf packs,
anti-submarine searches and fire, anti-aircraft fire, opening and battleship fire, the naval main
round with carrier defence, and the end of a naval cycle with carrier-borne aircraft.
"""

from __future__ import annotations

from typing import Any

from grandstrategy.axis_allies.aarhe.combat import national
from grandstrategy.axis_allies.aarhe.combat.cycle import (
    CAPITAL,
    ESCORT,
    CycleBase,
    _name,
    _techs,
)


class NavalSteps(CycleBase):
    """Naval-cycle steps of :class:`~.machine.CycleRun`."""

    # ---- naval cycle (S3:L224-230) -----------------------------------------------------------

    def step_screen(self) -> None:
        """Attacker then defender: each destroyer or cruiser may screen a friendly surface ship
        (S3:L228); hits aimed at that ship by submarines or aircraft strike the screener first."""
        self.b["screen_queue"] = [True, False]
        self.next_screen()

    def next_screen(self) -> None:
        while self.b["screen_queue"]:
            attacker = self.b["screen_queue"][0]
            done = self.b.setdefault("screened", {"True": 0, "False": 0})
            screeners = [
                f"{o}:{u}"
                for _, o, u, _, n in self.side(attacker)
                for _ in range(n)
                if self.role(u) in ESCORT
            ]
            ships = self.types(
                attacker,
                lambda u: (
                    self.g.stats[u].domain == "sea" and not self.g.stats[u].sub and self.role(u) not in ESCORT
                ),
            )
            index = done[str(attacker)]
            if index >= len(screeners) or not ships:
                self.b["screen_queue"].pop(0)
                continue
            screener = screeners[index].split(":")[1]
            options = [f"screen {s.replace(':', ' ')} with {screener}" for s in ships] + ["no screen"]
            self.ask(self.power_of(attacker), "screen", options, screener=screeners[index])
            return
        self.b.pop("screened", None)

    def answer_screen(self, option: str) -> None:
        ask = self.b["ask"]
        self.b["ask"] = None
        attacker = self.b["screen_queue"][0]
        self.b["screened"][str(attacker)] += 1
        if option != "no screen":
            words = option.split()
            owner, unit = ask["screener"].split(":")
            self.b["screens"].append([owner, unit, f"{words[1]}:{words[2]}"])
        self.next_screen()

    def wolf_pack(self, attacker: bool) -> int:
        """+1 when a side's submarines outnumber the enemy's destroyers and cruisers by more than
        one (S3:L228)."""
        rule = self.t.dice["wolf_pack"]
        subs = self.count(attacker, "SS")
        escorts = self.count(not attacker, "DD", "CA")
        return int(rule["bonus"]) if subs > escorts + int(rule["margin"]) else 0

    def step_sub_aim(self) -> None:
        self.b["sub_aims"] = []
        self.b["sub_queue"] = [True, False]
        self.next_sub_aim()

    def next_sub_aim(self) -> None:
        while self.b["sub_queue"]:
            attacker = self.b["sub_queue"].pop(0)
            subs = [u for _, _, u, _, n in self.side(attacker) for _ in range(n) if self.role(u) == "SS"]
            targets = self.ship_targets(not attacker)
            if subs and targets:
                self.b["queue"].insert(0, f"sub-aimed-{'a' if attacker else 'd'}")
                self.start_aim(attacker, subs, targets, "sub")
                return

    def step_sub_aimed_a(self) -> None:
        self.b["sub_aims"].append([True, self.take_aims()])
        self.next_sub_aim()

    def step_sub_aimed_d(self) -> None:
        self.b["sub_aims"].append([False, self.take_aims()])
        self.next_sub_aim()

    def step_sub_fire(self) -> None:
        """Each submarine fires at its own target; casualties wait for the end of the opening fire
        (S3:L228)."""
        for attacker, aims in self.b.pop("sub_aims", []):
            bonus = self.wolf_pack(attacker)
            for shooter, target in aims:
                owner = self.owner_of(attacker, shooter)
                advanced = int(self.t.technologies["advanced_submarine"]["sub_bonus"])
                value = (
                    self.value(owner, shooter, attacker)
                    + bonus
                    + (advanced if "advanced-submarine" in _techs(self.g, owner) else 0)
                )
                self.roll(
                    f"{self.who(attacker)} {shooter} fires at a {_name(target)}, hits on {value} or less",
                    value,
                    "target",
                    [not attacker, target, True],
                )

    def step_asw_search(self) -> None:
        """Each destroyer or cruiser rolls a search die against each enemy submarine (S3:L228)."""
        self.b["asw"] = {"True": {}, "False": {}}
        for attacker in (True, False):
            ships = self.count(attacker, "DD", "CA")
            planes = self.air(attacker) if self.air_asw(attacker) else 0
            subs = [
                (o, u, i)
                for _, o, u, _, n in self.side(not attacker)
                for i in range(n)
                if self.role(u) == "SS"
            ]
            if not ships + planes or not subs:
                continue
            need = self.asw_need(attacker, "asw_search", "search_modifier")
            plain = need - self.asw_bonus(attacker, "search_modifier")
            for owner, unit, index in subs:
                for value, hunters in ((need, ships), (plain, planes)):
                    for _ in range(hunters):
                        self.roll(
                            f"{self.who(attacker)} hunter seeks a {owner} {unit}, detects on {value} or less",
                            value,
                            "asw-detect",
                            [attacker, f"{owner}:{unit}", index],
                        )

    def air_asw(self, attacker: bool) -> bool:
        """Advanced ASW: aircraft hunt submarines too, without its +1 (S3:L238)."""
        return "advanced-asw" in _techs(self.g, self.power_of(attacker))

    def asw_bonus(self, attacker: bool, field: str) -> int:
        if not self.air_asw(attacker):
            return 0
        return int(self.t.technologies["advanced_asw"][field])

    def asw_need(self, attacker: bool, die: str, field: str) -> int:
        need = self.t.need(die)
        if "advanced-asw" in _techs(self.g, self.power_of(attacker)):
            need += int(self.t.technologies["advanced_asw"][field])
        if die == "asw_search":
            enemy = self.power_of(not attacker)
            if "advanced-submarine" in _techs(self.g, enemy):
                need += int(self.t.technologies["advanced_submarine"]["search_modifier"])
        return need

    def eff_asw_detect(self, face: int, need: int, arg: list[Any]) -> None:
        if face <= need:
            found = self.b["asw"][str(arg[0])].setdefault(arg[1], [])
            if arg[2] not in found:
                found.append(arg[2])

    def step_asw_aim(self) -> None:
        self.b["asw_queue"] = [True, False]
        self.b["asw_aims"] = []
        self.next_asw_aim()

    def next_asw_aim(self) -> None:
        while self.b["asw_queue"]:
            attacker = self.b["asw_queue"].pop(0)
            found = self.b["asw"][str(attacker)]
            hunters = [
                u
                for _, _, u, _, n in self.side(attacker)
                for _ in range(n)
                if self.role(u) in ESCORT or (self.air_asw(attacker) and self.g.stats[u].domain == "air")
            ]
            if found and hunters:
                self.b["queue"].insert(0, f"asw-aimed-{'a' if attacker else 'd'}")
                self.start_aim(attacker, hunters, sorted(found), "asw")
                return

    def step_asw_aimed_a(self) -> None:
        self.b["asw_aims"].append([True, self.take_aims()])
        self.next_asw_aim()

    def step_asw_aimed_d(self) -> None:
        self.b["asw_aims"].append([False, self.take_aims()])
        self.next_asw_aim()

    def step_asw_fire(self) -> None:
        """Each hunter attacks its detected submarine, hitting on 2 or less (S3:L228)."""
        for attacker, aims in self.b.pop("asw_aims", []):
            for shooter, target in aims:
                need = self.asw_need(attacker, "asw_attack", "attack_modifier")
                if self.g.stats[shooter].domain == "air":
                    need -= self.asw_bonus(attacker, "attack_modifier")
                self.roll(
                    f"{self.who(attacker)} {shooter} attacks a {_name(target)}, hits on {need} or less",
                    need,
                    "asw-hit",
                    [not attacker, target, attacker],
                )

    def eff_asw_hit(self, face: int, need: int, arg: list[Any]) -> None:
        taking, target, hunter = arg
        used = self.b.setdefault("asw_used", {})
        tag = f"{hunter}:{target}"
        if face <= need and used.get(tag, 0) < len(self.b["asw"][str(hunter)].get(target, [])):
            used[tag] = used.get(tag, 0) + 1
            self.hit(bool(taking), target=target)

    def step_anti_air(self) -> None:
        """Each ship rolls its anti-air value in dice at enemy aircraft, hitting on 1 (S3:L228)."""
        self.b.pop("asw_used", None)
        need = self.t.need("naval_anti_air")
        for attacker in (True, False):
            if not self.air(not attacker):
                continue
            for _, _, unit, _, n in self.side(attacker):
                found = self.t.units.get(unit)
                for _ in range(n * (found.anti_air if found else 0)):
                    self.roll(
                        f"{self.who(attacker)} {unit} anti-air fire, hits on {need} or less",
                        need,
                        "pool",
                        [not attacker, "air"],
                    )

    def step_opening_fire(self) -> None:
        """National Attacks (S3:L250): units that fire in the first cycle's opening fire instead
        of the main round (Shock Troops; Lance Torpedo's destroyers at sea, with the battleships),
        at most the turn's limit; their hits wait for the opening fire's casualties."""
        sea = self.g.is_sea(self.where)
        for attacker in (True, False):
            for _, owner, unit, _, n in self.side(attacker):
                found = national.opening(self, attacker, owner, unit)
                if found is None or (self.g.stats[unit].domain == "sea") != sea:
                    continue
                bonus, most = found
                take = min(n - self.b.get("opened", {}).get(f"{owner}:{unit}", 0), most)
                if take <= 0:
                    continue
                opened = self.b.setdefault("opened", {})
                opened[f"{owner}:{unit}"] = opened.get(f"{owner}:{unit}", 0) + take
                national.spend(self, owner, unit, take)
                value = self.value(owner, unit, attacker) + bonus
                value = value if sea else self.terrain(value)
                pool = {"DD": "escort", "CA": "escort"}.get(self.role(unit), "land")
                for _ in range(take):
                    self.roll(
                        f"{self.who(attacker)} {unit} fires in the opening fire, hits on {value} or less",
                        value,
                        "pool",
                        [not attacker, pool],
                    )

    def step_bb_fire(self) -> None:
        """Battleships fire in the opening fire (S3:L224, L244); hits go on capital ships first."""
        if int(self.b["cycle"]) == 1 and national.playing(self):
            self.step_opening_fire()
        for attacker in (True, False):
            for _, owner, unit, _, n in self.side(attacker):
                if self.role(unit) == "BB":
                    value = self.value(owner, unit, attacker)
                    for _ in range(n):
                        self.roll(
                            f"{self.who(attacker)} {unit} hits on {value} or less",
                            value,
                            "pool",
                            [not attacker, "capital"],
                        )

    def carrier_defence(self, attacker: bool) -> list[int]:
        """Each carrier's defence: 1, +1 per aircraft it carries (fighters, or naval fighters when
        the module has them), up to its capacity (S3:L244)."""
        planes = self.count(attacker, self.carrier_keeper())
        values = []
        for _, _, unit, _, n in self.side(attacker):
            if self.role(unit) != "CV":
                continue
            found = self.t.units[unit]
            for _ in range(n):
                aboard = min(planes, self.g.stats[unit].carrier_capacity or 2)
                planes -= aboard
                values.append(found.defence + found.defence_per_plane * aboard)
        return values

    def sea_main(self) -> None:
        """The other ships fire: carriers, destroyers, cruisers, transports (S3:L224)."""
        opened = self.b.get("opened", {})
        for attacker in (True, False):
            carriers = self.carrier_defence(attacker) if not attacker else []
            for _, owner, unit, _, n in self.side(attacker):
                role = self.role(unit)
                if self.g.stats[unit].domain != "sea" or role in ("BB", "SS"):
                    continue
                pool = {"CV": "capital", "DD": "escort", "CA": "escort", "AP": "transport"}.get(
                    role, "nonsub"
                )
                fired = opened.get(f"{owner}:{unit}", 0) if attacker else 0  # in the opening fire
                for _ in range(n - min(n, fired)):
                    value = (
                        carriers.pop(0) if role == "CV" and carriers else self.value(owner, unit, attacker)
                    )
                    if value > 0:
                        self.roll(
                            f"{self.who(attacker)} {unit} hits on {value} or less",
                            value,
                            "pool",
                            [not attacker, pool],
                        )

    def step_sea_end(self) -> None:
        """End of a naval cycle: aircraft that cannot stay at sea leave, submarines may submerge,
        then retreat, press on or break off (S3:L226, L228)."""
        for attacker in (True, False):
            self.carrier_air(attacker)
        if not self.can_hurt(True) and not self.can_hurt(False):
            self.g.log(f"neither side can harm the other at {self.where}")
            self.b["queue"] = ["defence-air-out"] if self.b.get("air_out") else []
            self.b["queue"].append("finish")
            return
        self.b["queue"] = ["sea-submerge"]
        if self.b.get("air_out"):
            self.b["queue"].insert(0, "defence-air-out")

    def carrier_keeper(self) -> str:
        """The aircraft that may sit on carriers: naval fighters when the module has them, else
        fighters (S3:L218, L226)."""
        hook = getattr(self.g.profile, "naval_fighters", None)
        if callable(hook):  # the variant's profile: when the game plays the optional units
            return "NAV" if hook(self.g) else "FTR"
        return "NAV" if any(self.role(u) == "NAV" for u in self.g.stats) else "FTR"

    def carrier_air(self, attacker: bool) -> None:
        """Aircraft other than fighters (naval fighters when the module has them), and fighters
        beyond the carriers' room, must leave the sea battle (S3:L226)."""
        keeper = self.carrier_keeper()
        room = sum(
            n * (self.g.stats[u].carrier_capacity or 0)
            for _, _, u, _, n in self.side(attacker)
            if self.role(u) == "CV"
        )
        for stack, _, unit, _, n in self.side(attacker):
            if self.g.stats[unit].domain != "air":
                continue
            stay = min(n, room) if self.role(unit) == keeper else 0
            room -= stay
            if n - stay:
                if attacker:
                    self.aside(stack, n - stay)
                else:  # counted aside until it lands (see land_air_out)
                    self.aside(stack, n - stay)
                    self.b.setdefault("air_out", {})[stack] = (
                        self.b.get("air_out", {}).get(stack, 0) + n - stay
                    )

    def can_hurt(self, attacker: bool) -> bool:
        """Whether one side's units at sea could hit any unit of the other under the variant's
        targeting (S3:L224, L228): else a battle of, say, submarines against aircraft would never
        end, and it stops with both sides in the zone."""
        own = {self.role(u) or u for _, _, u, _, _ in self.side(attacker)}
        enemy = self.side(not attacker)
        stats = self.g.stats
        ships = any(stats[u].domain == "sea" and not stats[u].sub for _, _, u, _, _ in enemy)
        subs = any(stats[u].sub for _, _, u, _, _ in enemy)
        air = any(stats[u].domain == "air" for _, _, u, _, _ in enemy)
        flying = any(stats[u].domain == "air" for _, _, u, _, _ in self.side(attacker))
        anti_air = any(
            (found.anti_air if (found := self.t.units.get(u)) else 0) > 0
            for _, _, u, _, _ in self.side(attacker)
        )
        return bool(
            ("SS" in own and ships)
            or (own & ESCORT and subs)
            or (own & (CAPITAL | ESCORT) and ships)
            or ("AP" in own and any(self.role(u) == "AP" for _, _, u, _, _ in enemy))
            or (anti_air and air)
            or (flying and (air or ships))
        )
