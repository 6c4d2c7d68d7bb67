"""The land cycle's fire steps and the amphibious first cycle of the variant's battle machine.

:class:`LandSteps` fires the ID searches and strikes (S3:L244), the air fire with dogfights, air
supremacy and jets (S3:L218-220), the land main round with heavy artillery (S3:L220, L224), and the
amphibious first cycle: bombardment, coastal guns, artillery and landing fire (S3:L222-224).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from grandstrategy.axis_allies.aarhe.combat import national
from grandstrategy.axis_allies.aarhe.combat.cycle import (
    SELECTIVE_AIR,
    CycleBase,
    _has,
    _name,
    _techs,
)
from grandstrategy.axis_allies.game.board import key, split


class LandSteps(CycleBase):
    """Land-cycle and amphibious steps of :class:`~.machine.CycleRun`."""

    if TYPE_CHECKING:
        # Steps of the other mixins that these steps hand over to (defined in .naval and .retreat).
        def sea_main(self) -> None: ...
        def attacker_retreats(self) -> list[str]: ...
        def landed(self) -> dict[str, int]: ...
        def attacker_retreat(self, to: str, only: str | None = None) -> None: ...
        def withdraw_air(self, attacker: bool) -> None: ...

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
