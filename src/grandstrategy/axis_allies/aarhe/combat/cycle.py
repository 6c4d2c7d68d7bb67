"""The plumbing of the variant's battle machine: the battle state, its facts, the dice and the questions.

:class:`CycleBase` holds what every step of :class:`~.machine.CycleRun` shares: reading the battle
from ``game.d["battle"]`` (sides, roles, values, terrain), running the queue of steps cycle by
cycle, queueing dice and questions, opening the battle (units set aside, aboard, released), aiming
fire at chosen targets and the casualty bookkeeping (hits into pools or on chosen types, the
owner's choice of casualties, S3:L220 and AH-C3), and dispatching answers and dice faces to the
``answer_*`` and ``eff_*`` methods the step mixins define. The cycles' step lists live here too.
"""

from __future__ import annotations

from typing import Any

from grandstrategy.axis_allies.aarhe.combat import national
from grandstrategy.axis_allies.aarhe.combat.tables import CombatTables, tables
from grandstrategy.axis_allies.game.board import key, split
from grandstrategy.axis_allies.game.combat import Combat

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


def cycle_records(queue: list[Any]) -> dict[str, Any]:
    """The bookkeeping every battle of the variant's machine starts with: its steps ``queue``, no
    dice, question, hits, screens, aims or retreats yet."""
    return {
        "round": 0,
        "stage": "aarhe",
        "queue": queue,
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


def _name(target: str) -> str:
    """``owner unit`` of an ``owner:unit`` target, for labels and options."""
    return target.replace(":", " ")


def _techs(game: Combat, power: str) -> set[str]:
    return set(game.techs(power))


def _has(techs: set[str], *names: str) -> bool:
    return any(n in techs for n in names)


class CycleBase:
    """The shared state and plumbing of :class:`~.machine.CycleRun` (see the module)."""

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

    def jet(self, owner: str, unit: str) -> bool:
        """A fighter or bomber of a power with Jet Plane technology (S3:L236)."""
        return self.role(unit) in self.t.jets and _has(_techs(self.g, owner), "jet-plane", "jet-power")

    def ship_targets(self, attacker: bool) -> list[str]:
        return self.types(attacker, lambda u: self.g.stats[u].domain == "sea" and not self.g.stats[u].sub)

    def owner_of(self, attacker: bool, unit: str) -> str:
        for _, owner, kind, _, _ in self.side(attacker):
            if kind == unit:
                return owner
        return self.power_of(attacker)

    def who(self, attacker: bool) -> str:
        return str(self.b["attacker"]) if attacker else "defence"

    def land_units(self, attacker: bool) -> int:
        return self.count(attacker, domain="land")

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

    def finish(self) -> None:
        """The battle is over: units set aside come back; the base decides capture (S3:L220)."""
        self.b["queue"] = []
        self.g.finish_battle(self.b)

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
            **cycle_records([]),
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
