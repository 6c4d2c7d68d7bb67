"""Movement in an A&A game: land, sea and air moves, transports, and landing aircraft.

Land and sea units move one territory or sea zone per decision; aircraft fly a whole path.
"""

from __future__ import annotations

from grandstrategy.axis_allies.game.board import key, split
from grandstrategy.axis_allies.game.combat import Combat
from grandstrategy.core.graph import bfs_distances


class Movement(Combat):
    """Combat and non-combat move: the legal moves and their effects."""

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
                    if combat and where in self.d["battles"]:
                        continue  # aircraft that flew into a battle stop there (Revised combat move)
                    targets = self.air_targets(
                        where, moves, combat=combat, carrier=self.carrier_cost(unit) > 0, unit=unit
                    )
                elif stats.domain == "land":
                    targets = self.land_targets(where, unit, combat=combat)
                elif stats.domain == "sea":
                    targets = self.sea_targets(where, combat=combat, sub=stats.sub, moves=moves)
                else:
                    continue
                for target in targets:
                    if not self.profile.may_enter(self, unit, where, target, combat=combat):
                        continue
                    reach[unit, target] = reach.get((unit, target), 0) + n
            for (unit, target), n in sorted(reach.items()):
                stats = self.stats[unit]
                counts = [1, n] if n > 1 else [1]
                room = self.profile.entry_room(self, target)
                if room is not None:  # a variant's limit counts the whole move
                    counts = sorted({min(c, room) for c in counts if min(c, room) > 0})
                if stats.transport_capacity:
                    counts = [c for c in counts if self.carry_plan(where, c) is not None]
                if stats.domain == "land" and self.is_sea(target):  # boarding: as many as fit
                    counts = [c for c in counts if c * stats.transport_cost <= self.cargo_room(power, target)]
                for c in counts:
                    riders = self.rider_choices(where, unit, c) if stats.carrier_capacity else []
                    if riders and stats.domain == "sea":  # which fighters ride: the mover's choice
                        result.extend(f"move {c} {unit} {where} -> {target} with {r} fighter" for r in riders)
                    else:
                        result.append(f"move {c} {unit} {where} -> {target}")
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
            if t.type.value != "land" or not self.profile.land_passable(self, other):
                continue
            if self.hostile_land(power, other):
                if combat:
                    result.append(other)
            elif combat or not self.enemy_units(power, other, combat_only=True):
                result.append(other)
        return result

    def sea_targets(self, where: str, *, combat: bool, sub: bool = False, moves: int = 1) -> list[str]:
        """Sea zones a ship may move to. Ships in a zone where a battle waits stay there, except
        those the enemy there does not block (:meth:`passes`). In combat move, adjacent zones,
        where a ship meeting enemy units that block it stops. In non-combat move, adjacent zones
        free of enemy warships, and, with two moves left, the zones beyond an enemy-held zone the
        ship may pass through (Revised: submarines where no enemy destroyer is; LHTR: past enemy
        transports and submarines), so that no ship ends its move among enemies."""
        power = self.power
        if where in self.d["battles"] and not (combat and self.passes(where, sub=sub)):
            return []
        result: list[str] = []
        for other in self.module.sea_neighbours(where):
            if not self.canal_open(where, other):
                continue
            if self.enemy_units(power, other, combat_only=True) and not combat:
                if moves >= 2 and self.passes(other, sub=sub):
                    result.extend(
                        beyond
                        for beyond in self.module.sea_neighbours(other)
                        if beyond != where
                        and self.canal_open(other, beyond)
                        and not self.enemy_units(power, beyond, combat_only=True)
                    )
                continue
            result.append(other)
        return sorted(set(result))

    def passes(self, zone: str, *, sub: bool) -> bool:
        """Whether a ship may move on through ``zone`` with the enemy units there: a submarine
        where no enemy destroyer is (Revised), any ship where the enemy has only transports and
        submarines (LHTR: they do not block). A variant may let submarines pass destroyers too
        (``Profile.subs_pass_destroyers``)."""
        power = self.power
        hostile = [
            self.stats[split(s)[1]]
            for s in self.d["units"].get(zone, {})
            if not self.friendly(power, split(s)[0]) and self.fights(split(s)[1], zone)
        ]
        if sub and (not any(u.destroyer for u in hostile) or self.profile.subs_pass_destroyers(self)):
            return True
        return all(u.sub or u.transport_capacity for u in hostile)

    def canal_open(self, a: str, b: str) -> bool:
        """Ships pass between a canal's sea zones only if their side holds its land (module canals)."""
        for canal in self.module.canals.values():
            crosses = a in canal.sea_zones and b in canal.sea_zones
            if crosses and not all(self.friendly(self.power, self.owner(t)) for t in canal.controlled_by):
                return False
        return True

    def air_targets(
        self,
        where: str,
        moves: int,
        *,
        combat: bool,
        anywhere: bool = False,
        carrier: bool = False,
        unit: str = "",
    ) -> list[str]:
        """Air moves a whole path at once: anywhere within its moves over passable territories
        (aircraft fly over anything but the impassable neutrals). Into battle or on a raid only
        where the moves left would still reach friendly land (or, for ``carrier`` aircraft, a
        carrier with room) as things stand now (Revised: no planned suicide flights). How far
        ``unit`` flies, and what it keeps to land after a battle, are the profile's
        (:meth:`Profile.flight_reach`, :meth:`Profile.moves_after_flight`)."""
        power = self.power

        def neighbours(t: str) -> list[str]:
            return [n for n in self.module.territories[t].neighbours if self.profile.air_passable(self, n)]

        span = self.profile.flight_range(self, unit, moves, combat=combat or anywhere)
        reach = self.profile.flight_reach(self, unit, where, moves, combat=combat or anywhere)
        home: dict[str, int] = {}
        if combat or anywhere:  # a flight into battle must leave the moves to reach a landing place
            spots = [t for t in self.module.territories if not self.is_sea(t) and self.landing_ok(t)]
            if carrier:
                spots += [t for t in self.d["units"] if self.is_sea(t) and self.landing_ok(t)]
                spots += [*self.carrier_destinations(), *self.awaited_carrier_zones()] if combat else []
            home = bfs_distances(spots, neighbours, moves)
        awaited = self.awaited_carrier_zones() if carrier and not combat and not anywhere else []
        result = []
        for target, distance in sorted(reach.items()):
            if distance == 0 or distance > span:
                continue
            after = self.profile.moves_after_flight(self, unit, moves, distance, combat=True)
            if (combat or anywhere) and home.get(target, moves + 1) > after:
                continue
            if anywhere:
                result.append(target)
            elif combat:
                if self.enemy_units(power, target, combat_only=True) or (
                    target in self.d["battles"] and self.enemy_units(power, target)
                ):
                    result.append(target)
            elif self.landing_ok(target) and (carrier or not self.is_sea(target)):
                result.append(target)  # only aircraft that fit a carrier land at sea (Revised)
            elif target in awaited:
                result.append(target)  # LHTR: waiting for a carrier bought this turn
        return result

    def awaited_carrier_zones(self) -> list[str]:
        """LHTR: fighters may not move onto a carrier as it is placed; instead they fly, in a
        movement phase, to the sea zone where a carrier bought this turn will be placed (next to
        a factory the power held at the start of its turn, free of enemy warships) and the carrier
        is placed under them. These zones, while the carriers bought and not yet placed have room
        beyond the aircraft already waiting at sea without a carrier."""
        if (
            not self.profile.fighters_await_new_carriers()
            or self.new_carrier_room() <= self.awaiting_aircraft()
        ):
            return []
        return self.new_carrier_zones()

    def new_carrier_room(self) -> int:
        """The carrier room of the carriers bought this turn and not placed yet."""
        return sum(n * self.stats[u].carrier_capacity for u, n in self.d["purchased"].items())

    def new_carrier_zones(self) -> list[str]:
        """Sea zones where the power may place a ship it bought: next to a factory it held at
        the start of its turn, free of enemy warships."""
        power = self.power
        zones = {
            zone
            for factory in self.d["start_factories"]
            if self.owner(factory) == power
            for zone in self.module.sea_neighbours(factory)
            if not self.enemy_units(power, zone, combat_only=True)
        }
        return sorted(zones)

    def awaiting_aircraft(self) -> int:
        """The carrier room that aircraft at sea lack now (those waiting for a new carrier)."""
        return sum(max(0, -self.carrier_room(z)) for z in self.d["units"] if self.is_sea(z))

    def carrier_destinations(self) -> list[str]:
        """Sea zones that the power's carriers with room and moves left could still reach this
        turn (Revised: a fighter may set out counting on a carrier moving under it later; if the
        carrier does not come, the fighter is lost at the end of non-combat move). A carrier may
        end in a zone with enemy units but passes only those that do not block it."""
        power = self.power
        result: set[str] = set()
        for zone, here in sorted(self.d["units"].items()):
            if not self.is_sea(zone) or self.carrier_room(zone) <= 0:
                continue
            reach = max(
                (
                    split(s)[2]
                    for s in here
                    if split(s)[0] == power and self.stats[split(s)[1]].carrier_capacity and not split(s)[3]
                ),
                default=0,
            )
            if zone in self.d["battles"]:
                reach = 0  # it stopped there to fight
            frontier = [zone]
            for _ in range(reach):
                step = []
                for here_zone in frontier:
                    if here_zone != zone and not self.passes(here_zone, sub=False):
                        continue  # stopped by the enemy there
                    for other in self.module.sea_neighbours(here_zone):
                        if other not in result and other != zone and self.canal_open(here_zone, other):
                            result.add(other)
                            step.append(other)
                frontier = step
        return sorted(result)

    def move(
        self, count: int, unit: str, origin: str, target: str, *, combat: bool, riders: int | None = None
    ) -> None:
        """Move ``count`` units of a type one step (aircraft: a flight); ``riders``: how many of
        the power's own fighters ride departing carriers (else the automatic plan)."""
        power = self.power
        stats = self.stats[unit]
        moved = 0
        aboard = self.carry_plan(origin, count) if stats.transport_capacity else []
        if stats.carrier_capacity and stats.domain == "sea":
            aboard = self.carrier_plan(origin, unit, count, riders)
        distance = self.air_distance(origin, target) if stats.domain == "air" else 1
        if stats.domain == "sea" and target not in self.module.sea_neighbours(origin):
            distance = 2  # non-combat: through a zone the enemy there does not block
        for stack, n in self.stacks(origin):
            owner, kind, moves, damage = split(stack)
            span = (
                self.profile.flight_range(self, unit, moves, combat=combat)
                if stats.domain == "air"
                else moves
            )
            if owner != power or kind != unit or span < distance or damage:
                continue
            take = min(n, count - moved)
            if stats.domain == "air":
                left = self.profile.moves_after_flight(self, unit, moves, distance, combat=combat)
            elif stats.domain == "land" and self.is_sea(target):
                left = moves  # boarding costs no movement; the unit moves with its transport
            elif stats.domain == "land" and self.is_sea(origin):
                left = 0  # unloading ends the unit's move (Revised)
            else:
                left = moves - distance
            attack = self.enemy_units(power, target) > 0 or (
                stats.domain == "land" and self.hostile_land(power, target)
            )
            if combat and attack and stats.domain != "air":
                empty = not self.enemy_units(
                    power, target, combat_only=True
                )  # AA guns, factories don't stop it
                if stats.blitz and left > 0 and empty:
                    self.capture(target, power)  # Revised: armour blitzes through empty enemy land
                elif stats.domain != "sea" or not self.passes(target, sub=stats.sub):
                    left = 0  # stopped; ships the enemy there does not block may go on
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
            landed = self.d.setdefault("amphibious", {}).setdefault(target, {})
            landed[unit] = landed.get(unit, 0) + moved  # these cannot retreat (Revised)
        if combat and stats.domain == "sea" and origin in self.d["battles"]:
            self.drop_empty_battle(origin)
        for stack in aboard or []:
            self.add(origin, stack, -1)
            self.add(target, stack)
        if combat and (self.enemy_units(power, target) or self.hostile_land(power, target)):
            if target not in self.d["battles"]:
                self.d["battles"].append(target)
            origins = self.d["origins"].setdefault(target, [])
            if stats.domain != "air" and origin not in origins and self.is_sea(origin) == self.is_sea(target):
                origins.append(origin)  # retreats go back where units came from (not amphibious)

    def drop_empty_battle(self, zone: str) -> None:
        """A battle waiting in a zone the power's units have all left (ships passing through) is
        no battle."""
        if not any(split(s)[0] == self.power for s in self.d["units"].get(zone, {})):
            self.d["battles"].remove(zone)
            self.d["origins"].pop(zone, None)

    def carrier_plan(self, zone: str, unit: str, count: int, riders: int | None = None) -> list[str]:
        """The fighters that ``count`` departing carriers take along as cargo: those the carriers
        staying behind cannot hold, allied fighters first (they cannot fly in this turn), then the
        power's own with the fewest moves left; at most what the departing carriers hold. With
        ``riders``, exactly that many of the power's own fighters ride (the mover's choice, see
        :meth:`rider_choices`). Cargo spends no moves of its own."""
        power = self.power
        stay_room = -count * self.stats[unit].carrier_capacity
        fighters: list[tuple[bool, int, str]] = []
        for stack, n in self.stacks(zone):
            owner, kind, moves, _ = split(stack)
            if not self.friendly(power, owner):
                continue
            stay_room += n * self.stats[kind].carrier_capacity
            if self.stats[kind].domain == "air" and self.carrier_cost(kind):
                fighters.extend([(owner == power, moves, stack)] * n)
        load = sum(self.carrier_cost(split(s)[1]) for _, _, s in fighters)
        room = count * self.stats[unit].carrier_capacity
        taken: list[str] = []
        own = 0
        for mine, _, stack in sorted(fighters):
            cost = self.carrier_cost(split(stack)[1])
            if cost > room:
                break
            if riders is None or not mine:
                if load <= max(0, stay_room):
                    break
            elif own >= riders:
                break
            taken.append(stack)
            own += mine
            load -= cost
            room -= cost
        return taken

    def rider_choices(self, zone: str, unit: str, count: int) -> list[int]:
        """How many of the power's own fighters may ride ``count`` departing carriers: from those
        that must (the carriers staying cannot hold them) to as many as fit; empty when that
        leaves no choice."""
        power = self.power
        forced = sum(split(s)[0] == power for s in self.carrier_plan(zone, unit, count))
        allied = sum(split(s)[0] != power for s in self.carrier_plan(zone, unit, count))
        room = count * self.stats[unit].carrier_capacity - allied
        own = sum(
            n
            for s, n in self.stacks(zone)
            if split(s)[0] == power
            and self.carrier_cost(split(s)[1])
            and self.stats[split(s)[1]].domain == "air"
        )
        most = min(own, room)
        return list(range(forced, most + 1)) if most > forced else []

    def moor_transports(self, zone: str) -> None:
        """Transports that have unloaded move no further this turn (Revised)."""
        for stack, n in self.stacks(zone):
            owner, unit, moves, damage = split(stack)
            if owner == self.power and self.stats[unit].transport_capacity and moves:
                self.add(zone, stack, -n)
                self.add(zone, key(owner, unit, 0, damage), n)

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
        """At the end of non-combat move, aircraft with nowhere legal to be are lost (Revised),
        except fighters waiting for a carrier bought this turn (LHTR, :meth:`awaited_carrier_zones`);
        run again at the end of mobilize, when nothing is pending, it sinks those still waiting."""
        power = self.power
        pending = self.new_carrier_room() if self.profile.fighters_await_new_carriers() else 0
        awaited = self.new_carrier_zones() if pending else []
        for where in sorted(self.d["units"]):
            # carrier_room is net of the aircraft already aboard: below zero, that many too many
            over = max(0, -self.carrier_room(where)) if self.is_sea(where) else 0
            if where in awaited:
                kept = min(over, pending)  # LHTR: they wait for a new carrier
                over, pending = over - kept, pending - kept
            for stack, n in self.stacks(where):
                owner, unit, _, _ = split(stack)
                if owner != power or self.stats[unit].domain != "air":
                    continue
                if self.is_sea(where):
                    cost = self.carrier_cost(unit)
                    lost = min(n, -(-over // cost)) if cost else n  # bombers never land at sea
                    over = max(0, over - lost * cost)
                else:
                    lost = 0 if self.landing_ok(where) else n
                if lost:
                    self.add(where, stack, -lost)
                    self.log(f"{lost} {unit} in {where} cannot land and are lost")

    def raid_options(self) -> list[str]:
        """``raid N bomber FROM -> TO``: bombers flying to an enemy territory with a factory."""
        power = self.power
        result: list[str] = []
        for where in sorted(self.d["units"]):
            if where in self.d["battles"]:
                continue  # bombers that flew into a battle stop there (Revised combat move)
            reach: dict[tuple[str, str], int] = {}
            for stack, n in self.stacks(where):
                owner, unit, moves, _ = split(stack)
                if owner != power or moves <= 0 or not self.stats[unit].strategic_bomber:
                    continue
                for target in self.air_targets(where, moves, combat=False, anywhere=True, unit=unit):
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
            span = self.profile.flight_range(self, unit, moves, combat=True)
            if owner != self.power or kind != unit or span < distance or count <= 0:
                continue
            take = min(n, count)
            count -= take
            self.add(origin, stack, -take)
            raiders = self.d["raids"].setdefault(target, {})
            new = key(
                owner, unit, self.profile.moves_after_flight(self, unit, moves, distance, combat=True), damage
            )
            raiders[new] = raiders.get(new, 0) + take
