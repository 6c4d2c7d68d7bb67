"""Battles of an A&A game: land and sea combat, AA fire, strategic bombing and rockets, capture.

Every die is a chance node (the engine asks :meth:`Combat.apply_chance` of the kernel's service);
every choice (casualties, retreat, submerging) is a decision of the side concerned.
"""

from __future__ import annotations

from typing import Any

from grandstrategy.axis_allies.game.board import Board, key, split
from grandstrategy.core.graph import bfs_distances


class Combat(Board):
    """Conduct combat: battles round by round, raids and rockets, and what a victory changes."""

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
            "amphibious": self.d.setdefault("amphibious", {}).pop(where, {}),
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
        if owner and self.profile.book_raid_damage(self, where, owner, battle["damage"]):
            self.d["battle"] = None
            return
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
        """``rocket TARGET from SOURCE``: with rockets, each launching place fires at an enemy
        factory within 3 spaces, as many times a turn as the rule set allows (Revised: once from
        each territory holding the power's AA guns that have not moved)."""
        power = self.power
        if "rockets" not in self.techs(power):
            return []

        def neighbours(t: str) -> list[str]:
            return [
                n for n in self.module.territories[t].neighbours if not self.module.territories[n].impassable
            ]

        launchers = self.profile.rocket_launchers(self, power)
        if launchers is None:
            launchers = {
                where: 1
                for where, stacks in self.d["units"].items()
                if not self.is_sea(where)
                and any(
                    split(s)[0] == power and self.stats[split(s)[1]].aa_gun and split(s)[2] > 0
                    for s in stacks
                )
            }
        result = []
        for where, count in sorted(launchers.items()):
            if self.d["rockets_fired"].count(where) >= count:
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

    def start_round(self, battle: dict[str, Any]) -> None:
        """One round of combat. Submarines whose enemy has no destroyer strike first and their
        victims do not fire back (Revised surprise strike); then every other unit fires at once."""
        where = battle["where"]
        if not self.side_units(where, True) or not self.side_units(where, False):
            self.finish_battle(battle)
            return
        battle["round"] += 1
        battle["hits"] = {}
        if self.may_submerge(where, attacker=True):
            battle["stage"] = "attacker-submerge"  # LHTR: attacking submarines may leave first
            return
        self.defence_may_submerge(battle)

    def may_submerge(self, where: str, *, attacker: bool) -> bool:
        """A side's submarines may submerge before a round at sea when the other side has no
        destroyer (Revised, LHTR 1.3: attacker and defender alike, at the start of every round)."""
        subs = any(self.stats[u].sub for _, _, u, _, _ in self.side_units(where, attacker))
        return subs and self.is_sea(where) and not self.has_destroyer(where, not attacker)

    def attacker_submerges(self, battle: dict[str, Any], submerge: bool) -> None:
        """The attacker's answer before a round; then the defence may answer in turn."""
        if submerge:
            self.submerge(battle)
            return
        self.defence_may_submerge(battle)

    def defence_may_submerge(self, battle: dict[str, Any]) -> None:
        if self.may_submerge(battle["where"], attacker=False):
            battle["stage"] = "defender-submerge"  # the defence may take its submarines out first
            return
        self.fire(battle)

    def defence_submerges(self, battle: dict[str, Any], submerge: bool) -> None:
        """The defence's answer before a round: its submarines leave the battle, or stay and fight."""
        where = battle["where"]
        if submerge:
            self.take_out(battle, attacker=False)
            self.log(f"defending submarines submerge at {where}")
            if not self.side_units(where, False):
                self.finish_battle(battle)
                return
        self.fire(battle)

    def take_out(self, battle: dict[str, Any], *, attacker: bool, air: bool = False) -> None:
        """One side's submarines (or, ``air``, the attacker's aircraft) leave the battle: they stay
        in the place, off the board until the battle is over (see :meth:`surface`)."""
        where = battle["where"]
        for stack, _, unit, _, n in self.side_units(where, attacker):
            if (self.stats[unit].domain == "air") if air else self.stats[unit].sub:
                self.add(where, stack, -n)
                battle["submerged"][stack] = battle["submerged"].get(stack, 0) + n

    def fire(self, battle: dict[str, Any]) -> None:
        """The volleys of a round: first-striking submarines, then everything else."""
        strike = self.round_dice(battle, strike=True)
        battle["after"] = "fire" if strike else "round-end"
        battle["dice"] = strike or self.round_dice(battle, strike=False)
        battle["stage"] = "strike" if strike else "roll"
        if not battle["dice"]:
            self.after_dice()

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
        units came from (units landed from the sea stay and fight on); in an amphibious assault,
        take its aircraft out of the battle (they stay above it and land in non-combat move, LHTR
        partial retreat); break off an attack of aircraft alone. Submarines submerge at the start
        of a round (:meth:`may_submerge`)."""
        where = battle["where"]
        attackers = self.side_units(where, True)
        landed = self.landed(battle)
        mobile = sum(n for _, _, _, _, n in attackers) > sum(landed.values())
        options = [f"retreat to {t}" for t in self.retreats(battle)] if mobile else []
        if attackers and all(self.stats[u].domain == "air" for _, _, u, _, _ in attackers):
            options.append("break off")
        elif landed and any(self.stats[u].domain == "air" for _, _, u, _, _ in attackers):
            options.append("retreat aircraft")
        return options

    def landed(self, battle: dict[str, Any]) -> dict[str, int]:
        """The attacking land units that came ashore from the sea and are still in the battle, by
        type (they cannot retreat, Revised). Casualties are counted against the units that came
        overland first, so the landed ones are the last to go (see docs/aa-game.md)."""
        where = battle["where"]
        here: dict[str, int] = {}
        for _, _, unit, _, n in self.side_units(where, True):
            here[unit] = here.get(unit, 0) + n
        return {
            unit: min(n, here.get(unit, 0))
            for unit, n in sorted(battle.get("amphibious", {}).items())
            if min(n, here.get(unit, 0)) > 0
        }

    def submerge(self, battle: dict[str, Any]) -> None:
        """Attacking submarines leave the battle (they stay in the sea zone); the rest fight on."""
        where = battle["where"]
        self.take_out(battle, attacker=True)
        self.log(f"submarines submerge at {where}")
        if not self.side_units(where, True):
            self.finish_battle(battle)
            return
        self.defence_may_submerge(battle)

    def retreat_aircraft(self, battle: dict[str, Any]) -> None:
        """LHTR partial retreat: the aircraft leave an amphibious assault; the landed units fight on."""
        self.take_out(battle, attacker=True, air=True)
        self.log(f"aircraft withdraw from the battle at {battle['where']}")
        self.start_round(battle)

    def surface(self, battle: dict[str, Any]) -> None:
        """Submerged submarines (and withdrawn aircraft) are back on the board when the battle is over."""
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
        """Every attacking unit leaves for ``to`` but those landed from the sea, which fight on
        (Revised); land and sea units have no moves left."""
        where = battle["where"]
        staying = self.landed(battle)
        leaving = []
        for stack, _, unit, damage, n in self.side_units(where, True):
            stay = min(n, staying.get(unit, 0))
            staying[unit] = staying.get(unit, 0) - stay
            if n - stay:
                leaving.append((stack, unit, damage, n - stay))
        if self.is_sea(where):  # cargo goes with its transports
            leaving += [(s, split(s)[1], 0, 1) for s in self.cargo(where, self.power)]
        for stack, unit, damage, n in leaving:
            _, _, moves, _ = split(stack)
            domain = self.stats[unit].domain
            left = moves if domain == "air" or (domain == "land" and self.is_sea(where)) else 0
            self.add(where, stack, -n)
            self.add(to, key(self.power, unit, left, damage), n)
        self.log(f"retreats from {where} to {to}")
        if self.side_units(where, True):  # the units landed from the sea fight on
            self.start_round(battle)
            return
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
            and self.profile.liberates(captor, original)
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
