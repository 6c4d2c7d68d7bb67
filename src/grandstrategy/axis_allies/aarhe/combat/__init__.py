"""The Historical Edition variant's combat: the land cycle, the naval cycle, air and their odds.

Each battle is a step machine like the base game's (:mod:`grandstrategy.axis_allies.game.combat`):
every choice the variant gives a player is a decision, every die a chance event. The variant's
profile returns :data:`BATTLES` from ``Profile.battle_machine()``; :mod:`.special` opens the
combats that happen during movement (strait fire, submarine transit, overflight, interdiction, the
atomic bomb) and declares Defensive Air Support.
"""

from grandstrategy.axis_allies.aarhe.combat.battles import BATTLES, AarheBattles

__all__ = ["BATTLES", "AarheBattles"]
