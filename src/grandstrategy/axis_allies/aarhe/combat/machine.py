"""The variant's battles as a step machine: the land cycle, the amphibious first cycle, the naval cycle.

The base engine (:mod:`grandstrategy.axis_allies.game.engine`) asks the profile's
``battle_machine()`` hook for the object that fights a battle opened with ``fight WHERE``; for the
Historical Edition that is :class:`~.battles.AarheBattles`, which runs the steps here. The
battle lives in the game's JSON state (``d["battle"]``, marked ``"machine": "aarhe"``): a queue
of steps still to run, the dice waiting to be rolled (each one chance event with its label) and
at most one open question (``ask``: who decides, and the options). Every choice the variant
leaves to a player is such a question: the target of each ID, fighter, submarine and destroyer,
each destroyer's screen, each hit's casualty, retreats, submerging, pressing on or breaking off.

Rules are cited by the variant document's line (S3:L220 ...). Readings of what the document leaves
open are the AH-C decisions listed in docs/aarhe-coverage.md (Combat section).
"""

from __future__ import annotations

from typing import Any

from grandstrategy.axis_allies.aarhe.combat import national
from grandstrategy.axis_allies.aarhe.combat.tables import CombatTables, tables
from grandstrategy.axis_allies.game.board import key, split
from grandstrategy.axis_allies.game.combat import Combat
from grandstrategy.core.graph import bfs_distances

ARMOUR_CLASS = frozenset({"ARM", "ART", "HARM", "HART"})
"""Land units that tank hits must strike first (S3:L220)."""
CAPITAL = frozenset({"BB", "CV"})
ESCORT = frozenset({"DD", "CA"})
SELECTIVE_AIR = frozenset({"FTR", "NAV", "DB"})
"""Aircraft that pick their targets under air supremacy: all but the bomber (S3:L220)."""

LAND_CYCLE = [
    "id-aim", "id-search", "id-strike-aim", "id-strike", "air-aim", "air-fire", "remove",
    "main-fire", "remove", "land-end",
]  # fmt: skip
AMPHIBIOUS_FIRST = [
    "id-aim", "id-search", "id-strike-aim", "id-strike", "air-aim", "air-fire", "remove",
    "bombard", "coastal-aim", "id-search", "id-strike-aim", "id-strike", "remove",
    "artillery-fire", "remove", "landing-fire", "remove", "landing-end",
]  # fmt: skip
SEA_CYCLE = [
    "screen", "sub-aim", "sub-fire", "asw-search", "asw-aim", "asw-fire", "remove",
    "anti-air", "air-aim", "air-fire", "bb-fire", "remove", "main-fire", "remove", "sea-end",
]  # fmt: skip

POOL_ORDER = (
    "air",
    "inf",
    "transport",
    "armour",
    "capital",
    "escort",
    "jets",
    "nojet",
    "dogfight",
    "nonsub",
    "land",
)
"""Casualty pools, most restricted first: hits are allocated in this order (AH-C3)."""


def _name(target: str) -> str:
    """``owner unit`` of an ``owner:unit`` target, for labels and options."""
    return target.replace(":", " ")


def _techs(game: Combat, power: str) -> set[str]:
    return set(game.techs(power))


def _has(techs: set[str], *names: str) -> bool:
    return any(n in techs for n in names)


class CycleRun:
    """One step of the machine on one game: reads and writes ``game.d["battle"]``."""

    def __init__(self, game: Combat) -> None:
        self.g = game
        self.t: CombatTables = tables()
        self.b: dict[str, Any] = game.d["battle"]

    # ---- facts ----------------------------------------------------------------------------

    @property
    def where(self) -> str:
        where: str = self.b["where"]
        return where

    def role(self, unit: str) -> str:
        return self.t.role(unit)

    def hp(self, unit: str) -> int:
        found = self.t.units.get(unit)
        return found.hits if found else self.g.stats[unit].hit_points

    def side(self, attacker: bool) -> list[tuple[str, str, str, int, int]]:
        """``(stack, power, type, damage, count)`` of one side's units in the battle: the attacking
        power's, or every power's hostile to it (the attacker is the power on move, except in an
        air interdiction, which happens in the enemy's turn). An allied naval fighter aboard at sea
        fights with the attacker: it is never cargo (S3:L248)."""
        power = self.b["attacker"]
        sea = self.g.is_sea(self.where)
        result = []
        for stack, n in self.g.stacks(self.where):
            owner, unit, _, damage = split(stack)
            mine = owner == power or (sea and self.role(unit) == "NAV" and self.g.friendly(power, owner))
            if self.g.fights(unit, self.where) and (mine if attacker else not self.g.friendly(power, owner)):
                result.append((stack, owner, unit, damage, n))
        return result

    def count(self, attacker: bool, *roles: str, domain: str | None = None) -> int:
        total = 0
        for _, _, unit, _, n in self.side(attacker):
            if roles and self.role(unit) not in roles:
                continue
            if domain and self.g.stats[unit].domain != domain:
                continue
            total += n
        return total

    def air(self, attacker: bool) -> int:
        return self.count(attacker, domain="air")

    def power_of(self, attacker: bool) -> str:
        return str(self.b["attacker"] if attacker else self.b["chooser"])

    def value(self, owner: str, unit: str, attacker: bool) -> int:
        """A unit's normal attack or defence under the variant (jets change fighters and bombers)."""
        found = self.t.units.get(unit)
        stats = self.g.stats[unit]
        if found is None:
            return stats.attack if attacker else stats.defence
        techs = _techs(self.g, owner)
        bonus = national.modifier(self, owner, unit, attacker)  # National Attacks (S3:L250)
        if found.role in self.t.jets and _has(techs, "jet-plane", "jet-power"):
            jet = self.t.jets[found.role]
            return int(jet["attack"] if attacker else jet["defence"]) + bonus
        return (found.attack if attacker else found.defence) + bonus

    def dogfight(self, owner: str, unit: str, attacker: bool) -> int:
        found = self.t.units.get(unit)
        if found is None or found.dogfight is None:
            return 0
        techs = _techs(self.g, owner)
        bonus = national.modifier(self, owner, unit, attacker)  # National Attacks (S3:L250)
        if found.role in self.t.jets and _has(techs, "jet-plane", "jet-power"):
            pair = self.t.jets[found.role]["dogfight"]
            return int(pair[0] if attacker else pair[1]) + bonus
        return (found.dogfight[0] if attacker else found.dogfight[1]) + bonus

    def terrain(self, value: int) -> int:
        """Snowy and mountainous terrain: land units -1, never below 1 (S3:L224)."""
        if self.where not in self.t.terrain_minus_one or value <= 0:
            return value
        return max(value + self.t.need("terrain", "modifier"), self.t.need("terrain", "floor"))

    def ids(self) -> int:
        """The defence's IDs: deployed ID units, 3 per factory and 1 for a victory city
        (S3:L236, L244-246)."""
        base = self.t.built_in_ids
        total = 0
        hook = getattr(self.g.profile, "ids_on_side", None)
        lying = int(hook(self.g, self.where)) if callable(hook) else 0  # not deployed (S3:L236)
        for stack, n in self.g.stacks(self.where):
            owner, unit, _, _ = split(stack)
            if self.g.friendly(self.b["attacker"], owner):
                continue
            if self.role(unit) == "ID":
                total += max(0, n - lying)
                lying = max(0, lying - n)
            if self.g.stats[unit].factory:
                total += n * int(base["factory"])
        holder = self.g.owner(self.where)
        if holder is not None and not self.g.friendly(self.b["attacker"], holder):
            total += int(base["victory_city"]) if self.victory_city() else 0
        return total

    def victory_city(self) -> bool:
        """Whether the battle's territory is a victory city: the profile's list when it has one
        (``victory_city(territory)``), else the module's flag."""
        hook = getattr(self.g.profile, "victory_city", None)
        if callable(hook):
            return bool(hook(self.where))
        return bool(self.g.module.territories[self.where].victory_city)

    def types(self, attacker: bool, test: Any = None) -> list[str]:
        """``owner:unit`` of one side's unit types passing ``test(unit)``, sorted."""
        found = {f"{o}:{u}" for _, o, u, _, _ in self.side(attacker) if test is None or test(u)}
        return sorted(found)

    # ---- plumbing ---------------------------------------------------------------------------

    def run(self) -> None:
        """Run steps until a die must be rolled, a question is open or the battle is over."""
        for _ in range(10_000):
            if self.g.d["battle"] is not self.b or self.b["dice"] or self.b["ask"] is not None:
                return
            if not self.b["queue"]:
                self.next_cycle()
                continue
            step = self.b["queue"].pop(0)
            getattr(self, "step_" + step.replace("-", "_"))()
        raise RuntimeError("the battle machine did not stop")

    def next_cycle(self) -> None:
        self.b["cycle"] += 1
        self.b["screens"] = []
        self.b.pop("opened", None)
        if self.g.is_sea(self.where):
            self.b["queue"] = list(SEA_CYCLE)
        else:
            self.b["queue"] = list(LAND_CYCLE)
            if self.b["cycle"] == 1 and national.playing(self):
                # Shock Troops fire with the opening fire of the first cycle (S3:L250)
                self.b["queue"].insert(self.b["queue"].index("remove"), "opening-fire")

    def roll(self, label: str, need: int, effect: str, arg: Any = None) -> None:
        """Queue one die: ``label`` says what rolls and what it needs; ``effect`` gets the face."""
        self.b["dice"].append([f"{self.where}: {label}", need, effect, arg])

    def ask(self, who: str, kind: str, options: list[str], **extra: Any) -> None:
        self.b["ask"] = {"who": who, "kind": kind, "options": options, **extra}

    def hit(
        self,
        taking_attacker: bool,
        *,
        pool: str | None = None,
        target: str | None = None,
        screen: bool = False,
        effect: str = "hit",
    ) -> None:
        """Record one hit on a side: into a casualty pool (the owner chooses) or on a chosen type."""
        self.b["hits"].append(
            {"attacker": taking_attacker, "pool": pool, "target": target, "screen": screen, "effect": effect}
        )

    # ---- opening -----------------------------------------------------------------------------

    def open(self, where: str) -> None:
        g = self.g
        g.d["battles"].remove(where)
        if g.is_sea(where):
            g.d["sea_fought"].append(where)
        amphibious = g.d.setdefault("amphibious", {}).pop(where, {})
        self.b = {
            "machine": "aarhe",
            "where": where,
            "attacker": g.power,
            "chooser": g.defence_chooser(where),
            "origins": sorted(g.d["origins"].pop(where, [])),
            "amphibious": amphibious,
            "bombard": sorted(g.d["bombard"].pop(where, [])) if not g.is_sea(where) else [],
            "cycle": 0,
            "round": 0,
            "stage": "aarhe",
            "queue": [],
            "dice": [],
            "ask": None,
            "hits": [],
            "owed": [],
            "screens": [],
            "submerged": {},
            "aboard": {},
            "aim": None,
            "idp": None,
            "retreating": {},
        }
        g.d["battle"] = self.b
        if amphibious and not g.is_sea(where):
            self.go_aboard()
            self.b["cycle"] = 1
            self.b["queue"] = list(AMPHIBIOUS_FIRST)
        self.run()

    def go_aboard(self) -> None:
        """Seaborne tanks and artillery stay on their transports in the first cycle (S3:L224)."""
        left = {u: n for u, n in self.b["amphibious"].items() if self.role(u) in ARMOUR_CLASS}
        for stack, _, unit, _, n in self.side(True):
            take = min(n, left.get(unit, 0))
            if take:
                left[unit] -= take
                self.aside(stack, take)
                self.b["aboard"][stack] = self.b["aboard"].get(stack, 0) + take

    def aside(self, stack: str, n: int) -> None:
        """Take units out of the battle but keep them in the place (back at the end)."""
        self.g.add(self.where, stack, -n)
        self.b["submerged"][stack] = self.b["submerged"].get(stack, 0) + n

    def release(self, stack: str, n: int, to: str | None) -> None:
        """Units set aside leave the battle for ``to`` with no moves left (None: they are lost)."""
        self.b["submerged"][stack] -= n
        if not self.b["submerged"][stack]:
            del self.b["submerged"][stack]
        if to is not None:
            owner, unit, _, damage = split(stack)
            self.arrive(to, key(owner, unit, 0, damage), n)

    def arrive(self, to: str, stack: str, n: int) -> None:
        """A retreating defender reaches ``to``; noted in ``d["aarhe_retreats"]`` because it is lost
        if ``to`` changes hands by the end of the combat phase (S3:L222, L226; see
        :func:`~.special.settle_retreats`)."""
        self.g.add(to, stack, n)
        self.g.d.setdefault("aarhe_retreats", []).append([to, stack, n])

    def unaside(self, stack: str, n: int) -> None:
        self.b["submerged"][stack] -= n
        if not self.b["submerged"][stack]:
            del self.b["submerged"][stack]
        self.g.add(self.where, stack, n)

    # ---- aiming ------------------------------------------------------------------------------

    def start_aim(self, attacker: bool, shooters: list[str], targets: list[str], purpose: str) -> None:
        """Each shooter picks a target type, one question each; all picks before any die (S3:L220,
        L228, L244). With one target there is nothing to ask."""
        self.b["aim"] = {
            "attacker": attacker,
            "left": shooters,
            "targets": targets,
            "chosen": [],
            "why": purpose,
        }
        self.next_aim()

    def next_aim(self) -> None:
        aim = self.b["aim"]
        while aim["left"]:
            shooter = aim["left"][0]
            if len(aim["targets"]) == 1:
                aim["chosen"].append([aim["left"].pop(0), aim["targets"][0]])
                continue
            options = [f"aim {shooter} at {t.replace(':', ' ')}" for t in aim["targets"]]
            self.ask(self.power_of(aim["attacker"]), "aim", options)
            return

    def answer_aim(self, option: str) -> None:
        aim = self.b["aim"]
        target = ":".join(option.split(" at ", 1)[1].split())
        aim["chosen"].append([aim["left"].pop(0), target])
        self.b["ask"] = None
        self.next_aim()

    def take_aims(self) -> list[list[str]]:
        aim = self.b["aim"]
        self.b["aim"] = None
        return list(aim["chosen"]) if aim else []

    # ---- ID fire (S3:L244) -------------------------------------------------------------------

    def step_id_aim(self) -> None:
        """Each ID picks an attacking aircraft (by type) to search for."""
        ids = self.ids()
        targets = self.types(True, lambda u: self.g.stats[u].domain == "air")
        self.b["idp"] = None
        if not ids or not targets:
            return
        self.b["idp"] = {"domain": "air", "ids": ids, "detected": {}, "used": {}}
        self.start_aim(False, ["id"] * ids, targets, "id")

    def step_coastal_aim(self) -> None:
        """In the bombardment, each ID searches for a ship of the assault instead (S3:L224)."""
        targets = sorted(
            {
                f"{o}:{u}"
                for zone in self.b["bombard"]
                for stack, _ in self.g.stacks(zone)
                for o, u, _, _ in [split(stack)]
                if o == self.b["attacker"] and self.g.stats[u].domain == "sea" and not self.g.stats[u].sub
            }
        )
        ids = self.ids()
        self.b["idp"] = None
        if not ids or not targets:
            return
        self.b["idp"] = {"domain": "sea", "ids": ids, "detected": {}, "used": {}}
        self.start_aim(False, ["id"] * ids, targets, "id")

    def id_radar(self) -> int:
        techs = _techs(self.g, self.b["chooser"])
        return (
            int(self.t.technologies["advanced_radar"]["id_search_modifier"])
            if "advanced-radar" in techs
            else 0
        )

    def step_id_search(self) -> None:
        if self.b["idp"] is None:
            return
        need = self.t.need("id_search") + self.id_radar()
        for _, target in self.take_aims():
            self.roll(
                f"ID searches for a {_name(target)}, detects on {need} or less",
                need,
                "id-detect",
                target,
            )

    def eff_id_detect(self, face: int, need: int, target: str) -> None:
        if face <= need:
            found = self.b["idp"]["detected"]
            found[target] = found.get(target, 0) + 1

    def detected_types(self) -> dict[str, int]:
        """Detected units by type: at most the units of that type (several IDs may find one)."""
        idp = self.b["idp"]
        result: dict[str, int] = {}
        for target, n in sorted(idp["detected"].items()):
            present = self.units_of(target, idp["domain"])
            if min(n, present):
                result[target] = min(n, present)
        return result

    def units_of(self, target: str, domain: str) -> int:
        owner, unit = target.split(":")
        if domain == "sea" and not self.g.is_sea(self.where):
            return sum(
                n
                for zone in self.b["bombard"]
                for s, n in self.g.stacks(zone)
                if split(s)[:2] == (owner, unit)
            )
        return sum(n for _, o, u, _, n in self.side(True) if (o, u) == (owner, unit))

    def step_id_strike_aim(self) -> None:
        idp = self.b["idp"]
        if idp is None:
            return
        found = self.detected_types()
        idp["found"] = found
        if found:
            self.start_aim(False, ["id"] * idp["ids"], sorted(found), "id")

    def step_id_strike(self) -> None:
        idp = self.b["idp"]
        if idp is None:
            return
        hit, retreat = self.t.need("id_attack"), self.t.need("id_attack", "retreat")
        for _, target in self.take_aims():
            self.roll(
                f"ID fires at a {_name(target)}: {hit} hits, {retreat} forces a retreat",
                retreat,
                "id-strike",
                target,
            )

    def eff_id_strike(self, face: int, need: int, target: str) -> None:
        idp = self.b["idp"]
        if face > need or idp["used"].get(target, 0) >= idp["found"].get(target, 0):
            return  # a miss, or every detected unit of that type is dealt with already
        idp["used"][target] = idp["used"].get(target, 0) + 1
        effect = "hit" if face <= self.t.need("id_attack") else "retreat"
        if idp["domain"] == "sea" and not self.g.is_sea(self.where):
            self.b.setdefault("ship_hits", []).append([target, effect])
        else:
            self.hit(True, target=target, effect=effect)

    # ---- air fire (S3:L218-220) --------------------------------------------------------------

    def step_air_aim(self) -> None:
        """Under air supremacy every aircraft but the bomber picks its target (an enemy land unit,
        or at sea a surface ship) before anyone rolls (S3:L220)."""
        self.b["air_aims"] = []
        sea = self.g.is_sea(self.where)
        if self.air(True) and self.air(False):
            self.jet_aim(sea)
            return
        for attacker in (True, False):
            if not self.air(attacker):
                continue
            shooters = [
                u for _, _, u, _, n in self.side(attacker) for _ in range(n) if self.role(u) in SELECTIVE_AIR
            ]
            targets = (
                self.ship_targets(not attacker)
                if sea
                else self.types(not attacker, lambda u: self.g.stats[u].domain == "land")
            )
            if shooters and targets:
                self.b["air_side"] = attacker
                self.b["queue"].insert(0, "air-aim-done")
                self.start_aim(attacker, shooters, targets, "air")
                return

    def jet(self, owner: str, unit: str) -> bool:
        """A fighter or bomber of a power with Jet Plane technology (S3:L236)."""
        return self.role(unit) in self.t.jets and _has(_techs(self.g, owner), "jet-plane", "jet-power")

    def jets(self, attacker: bool) -> bool:
        return any(self.jet(o, u) for _, o, u, _, _ in self.side(attacker))

    def jet_aim(self, sea: bool) -> None:
        """Jet supremacy (S3:L220): when only one side has jets, it may send them past the
        dogfight against land units, at normal values, fighters at chosen targets."""
        if "jet_choice" not in self.b:
            jets = [a for a in (True, False) if self.jets(a)]
            self.b["jet_choice"] = None
            if len(jets) == 1 and not sea:
                self.b["jet_side"] = jets[0]
                self.b["queue"].insert(0, "air-aim")
                self.ask(self.power_of(jets[0]), "jets", ["jets dogfight", "jets strike the ground"])
                return
        side = self.b["jet_choice"]
        if side is None:
            return
        shooters = [
            u
            for _, o, u, _, n in self.side(side)
            for _ in range(n)
            if self.jet(o, u) and self.role(u) in SELECTIVE_AIR
        ]
        targets = self.types(not side, lambda u: self.g.stats[u].domain == "land")
        if shooters and targets:
            self.b["air_side"] = side
            self.b["queue"].insert(0, "air-aim-done")
            self.start_aim(side, shooters, targets, "air")

    def answer_jets(self, option: str) -> None:
        self.b["ask"] = None
        self.b["queue"].pop(0)  # the air-aim step put back for this answer runs now
        self.b["jet_choice"] = self.b["jet_side"] if option == "jets strike the ground" else None
        self.jet_aim(False)

    def step_air_aim_done(self) -> None:
        self.b["air_aims"] = self.take_aims()

    def ship_targets(self, attacker: bool) -> list[str]:
        return self.types(attacker, lambda u: self.g.stats[u].domain == "sea" and not self.g.stats[u].sub)

    def step_air_fire(self) -> None:
        """Attacking then defending aircraft fire: at dogfight values with hits on aircraft first
        while both sides fly; else at normal values, each fighter at the target it picked, bombers
        (never at ships) into the casualty pool (S3:L218-220)."""
        sea = self.g.is_sea(self.where)
        if self.air(True) and self.air(False):
            strike = self.b.pop("jet_choice", None)
            self.b.pop("jet_side", None)
            for attacker in (True, False):
                for _, owner, unit, _, n in self.side(attacker):
                    if self.g.stats[unit].domain != "air":
                        continue
                    if strike is not None and attacker == strike and self.jet(owner, unit):
                        self.jet_strike(owner, unit, n, attacker)
                        continue
                    value = self.dogfight(owner, unit, attacker)
                    pool = "air" if sea and self.role(unit) == "BMR" else "dogfight"
                    if self.jet(owner, unit):
                        pool = "jets"  # jet hits go on jets first (S3:L220)
                    elif strike is not None:
                        pool = "nojet"  # striking jets cannot be intercepted (S3:L220)
                    for _ in range(n * self.bomber_dice(owner, unit)):
                        if value > 0:
                            self.roll(
                                f"{self.who(attacker)} {unit} dogfights, hits on {value} or less",
                                value,
                                "pool",
                                [not attacker, pool],
                            )
            return
        for attacker in (True, False):
            if not self.air(attacker):
                continue
            for shooter, target in self.b.get("air_aims", []) if self.b.get("air_side") == attacker else []:
                value = self.value(self.owner_of(attacker, shooter), shooter, attacker)
                self.roll(
                    f"{self.who(attacker)} {shooter} attacks a {_name(target)}, hits on {value} or less",
                    value,
                    "target",
                    [not attacker, target, sea],
                )
            if sea:
                continue  # bombers cannot attack ships (S3:L220)
            for _, owner, unit, _, n in self.side(attacker):
                if self.g.stats[unit].domain != "air" or self.role(unit) in SELECTIVE_AIR:
                    continue
                value = self.value(owner, unit, attacker)
                for _ in range(n * self.bomber_dice(owner, unit)):
                    self.roll(
                        f"{self.who(attacker)} {unit} bombs, hits on {value} or less",
                        value,
                        "pool",
                        [not attacker, "land"],
                    )
        self.b["air_aims"] = []
        self.b.pop("air_side", None)

    def jet_strike(self, owner: str, unit: str, n: int, attacker: bool) -> None:
        value = self.value(owner, unit, attacker)
        if self.role(unit) in SELECTIVE_AIR:
            aims = [t for s, t in self.b.get("air_aims", []) if s == unit]
            for target in aims[:n]:
                self.roll(
                    f"{self.who(attacker)} jet {unit} attacks a {_name(target)}, hits on {value} or less",
                    value,
                    "target",
                    [not attacker, target, False],
                )
            return
        for _ in range(n * self.bomber_dice(owner, unit)):
            self.roll(
                f"{self.who(attacker)} jet {unit} bombs, hits on {value} or less",
                value,
                "pool",
                [not attacker, "land"],
            )

    def owner_of(self, attacker: bool, unit: str) -> str:
        for _, owner, kind, _, _ in self.side(attacker):
            if kind == unit:
                return owner
        return self.power_of(attacker)

    def who(self, attacker: bool) -> str:
        return str(self.b["attacker"]) if attacker else "defence"

    def bomber_dice(self, owner: str, unit: str) -> int:
        """Heavy Bomber: two dice, each of which may hit (S3:L238, AH-C9)."""
        heavy = _has(_techs(self.g, owner), "heavy-bomber", "heavy-bombers")
        return 2 if heavy and self.role(unit) == "BMR" else 1

    def eff_pool(self, face: int, need: int, arg: list[Any]) -> None:
        if face <= need:
            self.hit(bool(arg[0]), pool=str(arg[1]))

    def eff_target(self, face: int, need: int, arg: list[Any]) -> None:
        if face <= need:
            self.hit(bool(arg[0]), target=str(arg[1]), screen=bool(arg[2]))

    # ---- land main round (S3:L220, L224) -----------------------------------------------------

    def step_main_fire(self) -> None:
        if self.g.is_sea(self.where):
            self.sea_main()
            return
        for attacker in (True, False):
            self.land_volley(attacker, only=None)
            self.heavy_artillery(attacker)

    def land_volley(
        self,
        attacker: bool,
        only: set[str] | None,
        *,
        lifted: int = 0,
        lift_role: str = "",
        landed: dict[str, int] | None = None,
    ) -> None:
        """One side's land units fire: infantry with artillery 1:1 at 2, tanks +1 per fighter 1:1
        under air supremacy (S3:L220, L244); tank hits strike tanks and artillery first. National
        Attacks (S3:L250): Blitzkrieg's fighters lift tanks 1:1, Marines (``landed``: the units
        landed from the sea) get their bonus, units that fired in the opening fire do not fire."""
        side = self.side(attacker)
        art = sum(n for _, _, u, _, n in side if self.role(u) == "ART") if attacker else 0
        supremacy = self.air(attacker) > 0 and self.air(not attacker) == 0
        fighters = self.count(attacker, "FTR") if supremacy else 0
        lifts = {(nation, role): [mod, n] for nation, role, mod, n in national.per_fighter(self, attacker)}
        marines = {(nation, role): mod for nation, role, mod in national.amphibious(self)} if landed else {}
        opened = dict(self.b.get("opened", {})) if attacker else {}
        for _, owner, unit, _, n in side:
            role = self.role(unit)
            if self.g.stats[unit].domain != "land" or (only is not None and role not in only):
                continue
            found = self.t.units.get(unit)
            skip = min(n, opened.get(f"{owner}:{unit}", 0))
            opened[f"{owner}:{unit}"] = opened.get(f"{owner}:{unit}", 0) - skip
            for _ in range(n - skip):
                value = self.value(owner, unit, attacker)
                lift = lifts.get((owner, role))
                if lift and lift[1] > 0:
                    lift[1] -= 1
                    value += lift[0]
                if landed and (owner, role) in marines and landed.get(unit, 0) > 0:
                    landed[unit] -= 1
                    value += marines[owner, role]
                if attacker and role == "INF" and art > 0 and found and found.supported_attack:
                    art -= 1
                    value = found.supported_attack
                if role in ("ARM", "HARM") and fighters > 0:
                    fighters -= 1
                    value += 1
                if role == lift_role and lifted > 0:
                    lifted -= 1
                    value += 1
                value = self.terrain(value)
                pool = "armour" if role in ("ARM", "HARM") else "land"
                if value > 0:
                    self.roll(
                        f"{self.who(attacker)} {unit} hits on {value} or less",
                        value,
                        "pool",
                        [not attacker, pool],
                    )

    def heavy_artillery(self, attacker: bool) -> None:
        """Heavy artillery named in ``d["aarhe_heavy_artillery"][where]`` fires from next door at
        -1 and cannot be hit (S3:L248); declaring it is a movement-phase matter (AH-C12)."""
        support = self.g.d.get("aarhe_heavy_artillery", {}).get(self.where, [])
        for stack, n in support:
            owner, unit, _, _ = split(stack)
            if self.g.friendly(self.b["attacker"], owner) != attacker:
                continue
            found = self.t.units.get(unit)
            value = self.terrain(
                self.value(owner, unit, attacker) + (found.adjacent_modifier if found else 0)
            )
            for _ in range(n):
                if value > 0:
                    self.roll(
                        f"{self.who(attacker)} {unit} fires from next door, hits on {value} or less",
                        value,
                        "pool",
                        [not attacker, "land"],
                    )

    # ---- casualties --------------------------------------------------------------------------

    def step_remove(self) -> None:
        """Remove casualties: hits on chosen targets first (screeners take them for their ship),
        then each pool hit as its owner chooses, defence first (S3:L220, L224, L228)."""
        for hit in [h for h in self.b["hits"] if h["target"]]:
            self.apply_targeted(hit)
        owed = [[h["attacker"], h["pool"]] for h in self.b["hits"] if h["pool"]]
        owed.sort(key=lambda h: (h[0], POOL_ORDER.index(h[1])))
        self.b["hits"] = []
        self.b["owed"] = owed
        self.ship_damage()
        self.b["queue"].insert(0, "after-remove")
        self.next_casualty()

    def step_after_remove(self) -> None:
        """A side wiped out: the rest of the cycle's fire is skipped, straight to its end."""
        if self.side(True) and self.side(False):
            return
        ends = [s for s in self.b["queue"] if s.endswith("-end")]
        self.b["queue"] = ends[:1]

    def apply_targeted(self, hit: dict[str, Any]) -> None:
        owner, unit = str(hit["target"]).split(":")
        attacker = bool(hit["attacker"])
        if hit["screen"]:
            for screen in self.b["screens"]:
                s_owner, s_unit, ship = screen
                if ship == hit["target"] and self.damage_one(attacker, s_owner, s_unit):
                    self.b["screens"].remove(screen)
                    return
        if hit["effect"] == "retreat":
            for stack, o, u, _, _ in self.side(attacker):
                if (o, u) == (owner, unit):
                    self.aside(stack, 1)
                    self.g.log(f"an ID forces a {owner} {unit} out of the battle at {self.where}")
                    return
            return
        self.damage_one(attacker, owner, unit)

    def damage_one(self, attacker: bool, owner: str, unit: str, *, finish: bool = True) -> bool:
        """One hit on a unit of that type, the most damaged first (``finish``) or an intact one."""
        units = [(stack, d) for stack, o, u, d, _ in self.side(attacker) if (o, u) == (owner, unit)]
        if not units:
            return False
        units.sort(key=lambda x: -x[1] if finish else x[1])
        stack, damage = units[0]
        self.g.add(self.where, stack, -1)
        if damage + 1 < self.hp(unit):
            _, _, moves, _ = split(stack)
            self.g.add(self.where, key(owner, unit, moves, damage + 1))
        if self.g.is_sea(self.where):
            self.g.drop_cargo(self.where)
        return True

    def ship_damage(self) -> None:
        """IDs' hits on the ships of an amphibious assault (S3:L224): a hit damages or sinks the
        ship in its sea zone; a forced retreat has no effect on a ship (AH-C7)."""
        for target, effect in self.b.pop("ship_hits", []):
            if effect != "hit":
                continue
            owner, unit = target.split(":")
            for zone in self.b["bombard"]:
                stacks = [(s, split(s)[3]) for s, _ in self.g.stacks(zone) if split(s)[:2] == (owner, unit)]
                if stacks:
                    stack, damage = max(stacks, key=lambda x: x[1])
                    self.g.add(zone, stack, -1)
                    if damage + 1 < self.hp(unit):
                        self.g.add(zone, key(owner, unit, split(stack)[2], damage + 1))
                    self.g.drop_cargo(zone)
                    self.g.log(f"an ID hits a {owner} {unit} in {zone}")
                    break

    def eligible(self, attacker: bool, pool: str) -> list[tuple[str, str, str, int, int]]:
        """The units a pool's hit may strike now: the first group in the pool's order with any."""
        side = self.side(attacker)
        stats = self.g.stats

        def group(test: Any) -> list[tuple[str, str, str, int, int]]:
            if getattr(test, "owned", False):
                return [u for u in side if test(u[1], u[2])]
            return [u for u in side if test(u[2])]

        def jet(owner: str, unit: str) -> bool:
            return self.jet(owner, unit)

        def plain(owner: str, unit: str) -> bool:
            return stats[unit].domain == "air" and not self.jet(owner, unit)

        jet.owned = plain.owned = True  # type: ignore[attr-defined]

        def land(u: str) -> bool:
            return stats[u].domain == "land"

        def air(u: str) -> bool:
            return stats[u].domain == "air"

        def ship(u: str) -> bool:
            return stats[u].domain == "sea" and not stats[u].sub

        orders: dict[str, list[Any]] = {
            "air": [air],
            "land": [land],
            "inf": [lambda u: self.role(u) == "INF"],
            "armour": [lambda u: self.role(u) in ARMOUR_CLASS, land],
            "dogfight": [air, ship if self.g.is_sea(self.where) else land],
            "jets": [jet, air, ship if self.g.is_sea(self.where) else land],
            "nojet": [plain, land],
            "capital": [
                lambda u: self.role(u) in CAPITAL,
                lambda u: self.role(u) in ESCORT,
                lambda u: self.role(u) == "AP",
            ],
            "escort": [
                lambda u: self.role(u) in ESCORT,
                lambda u: self.role(u) in CAPITAL,
                lambda u: self.role(u) == "AP",
            ],
            "transport": [lambda u: self.role(u) == "AP"],
            "nonsub": [ship],
        }
        for test in orders[pool]:
            found = group(test)
            if found:
                return found
        return []

    def casualty_options(self, units: list[tuple[str, str, str, int, int]]) -> list[str]:
        options = set()
        for _, owner, unit, damage, _ in units:
            left = self.hp(unit) - damage
            options.add(f"damage {owner} {unit}" if left > 1 else f"lose {owner} {unit}")
        return sorted(options)

    def next_casualty(self) -> None:
        """Take the owed hits one at a time; ask only when there is a real choice."""
        owed = self.b["owed"]
        while owed:
            attacker, pool = owed[0]
            units = self.eligible(attacker, pool)
            if not units:
                owed.pop(0)  # no unit may take it: the hit is lost
                continue
            same = sum(1 for h in owed if h == [attacker, pool])
            total = sum((self.hp(u) - d) * n for _, _, u, d, n in units)
            options = self.casualty_options(units)
            if len(options) == 1 or same >= total:
                self.take(options[0])
                continue
            self.ask(self.power_of(attacker), "casualty", options)
            return

    def take(self, option: str) -> None:
        verb, owner, unit = option.split()
        attacker, _ = self.b["owed"].pop(0)
        self.damage_one(attacker, owner, unit, finish=verb == "lose")

    def answer_casualty(self, option: str) -> None:
        self.b["ask"] = None
        self.take(option)
        self.next_casualty()

    # ---- end of a land cycle (S3:L220-222) ---------------------------------------------------

    def land_units(self, attacker: bool) -> int:
        return self.count(attacker, domain="land")

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

    def finish(self) -> None:
        """The battle is over: units set aside come back; the base decides capture (S3:L220)."""
        self.b["queue"] = []
        self.g.finish_battle(self.b)

    # ---- amphibious first cycle (S3:L222-224) ------------------------------------------------

    def step_bombard(self) -> None:
        """Coastal bombardment: each bombarding ship fires once; the defence loses at most one land
        unit per 4 attacking infantry (rounded up, AH-C6)."""
        ships = 0
        for zone in self.b["bombard"]:
            if zone in self.g.d["sea_fought"]:
                continue
            for stack, n in self.g.stacks(zone):
                owner, unit, _, _ = split(stack)
                if owner == self.b["attacker"] and self.g.profile.bombards(unit, self.g.techs(owner)):
                    ships += n
                    value = self.value(owner, unit, True)
                    for _ in range(n):
                        self.roll(
                            f"{owner} {unit} bombards the coast, hits on {value} or less", value, "bombard"
                        )
            self.g.d["sea_fought"].append(zone)
        self.b["ships"] = ships
        infantry = self.count(True, "INF")
        self.b["bombard_cap"] = -(-infantry // 4)

    def eff_bombard(self, face: int, need: int, arg: Any) -> None:
        if face <= need and self.b["bombard_cap"] > 0:
            self.b["bombard_cap"] -= 1
            self.hit(False, pool="land")

    def step_artillery_fire(self) -> None:
        """The defence's artillery fires; its hits must strike attacking infantry (S3:L224)."""
        for _, owner, unit, _, n in self.side(False):
            if self.role(unit) == "ART":
                value = self.terrain(self.value(owner, unit, False))
                for _ in range(n):
                    self.roll(
                        f"defence {unit} fires at the landing, hits on {value} or less",
                        value,
                        "pool",
                        [True, "inf"],
                    )

    def step_landing_fire(self) -> None:
        """Attacking infantry fire (+1 per bombarding ship, 1:1); the other defending land units
        fire (S3:L224). Units that came overland fire as in any cycle (AH-C6)."""
        self.land_volley(
            True,
            only={"INF", "ARM", "ART", "HARM", "HART"},
            lifted=int(self.b.get("ships", 0)),
            lift_role="INF",
            landed=self.landed(),
        )
        side = self.side(False)
        for _, owner, unit, _, n in side:
            role = self.role(unit)
            if self.g.stats[unit].domain != "land" or role == "ART":
                continue
            value = self.terrain(self.value(owner, unit, False))
            pool = "armour" if role in ("ARM", "HARM") else "land"
            for _ in range(n):
                if value > 0:
                    self.roll(f"defence {unit} hits on {value} or less", value, "pool", [True, pool])

    def step_landing_end(self) -> None:
        """Tanks and artillery come ashore if attacking infantry survive; else the attack must
        retreat, the seaborne units back to their sea zone (S3:L224)."""
        if self.count(True, "INF"):
            for stack, n in sorted(self.b["aboard"].items()):
                self.unaside(stack, n)
            self.b["aboard"] = {}
            self.b["queue"] = ["land-end"]
            return
        zone = self.b["bombard"][0] if self.b["bombard"] else None
        for stack, n in sorted(self.b["aboard"].items()):
            self.b["submerged"][stack] -= n
            if not self.b["submerged"][stack]:
                del self.b["submerged"][stack]
            if zone is not None:
                owner, unit, _, damage = split(stack)
                self.g.add(zone, key(owner, unit, 0, damage), n)
                self.g.drop_cargo(zone)
        self.b["aboard"] = {}
        self.g.log(f"the landing at {self.where} fails")
        origins = self.attacker_retreats()
        if self.land_units(True) and origins:
            self.ask(self.b["attacker"], "failed-landing", [f"retreat to {t}" for t in origins])
            return
        self.withdraw_air(True)
        for stack, _, _, _, n in self.side(True):
            self.g.add(self.where, stack, -n)  # nowhere to go: lost (AH-C6)
        self.finish()

    def answer_failed_landing(self, option: str) -> None:
        self.b["ask"] = None
        self.attacker_retreat(option.split()[-1])
        self.withdraw_air(True)
        self.finish()

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

    # ---- dispatch ----------------------------------------------------------------------------

    def choose(self, option: str) -> None:
        ask = self.b["ask"]
        kind = ask["kind"].replace("-", "_")
        getattr(self, f"answer_{kind}")(option)
        self.run()

    def die(self, face: int) -> None:
        _, need, effect, arg = self.b["dice"].pop(0)
        getattr(self, "eff_" + effect.replace("-", "_"))(face, need, arg)
        if not self.b["dice"]:
            self.run()
