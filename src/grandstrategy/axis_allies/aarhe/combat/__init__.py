"""The Historical Edition variant's combat: the land cycle, the naval cycle, air and their odds.

Each battle is a step machine like the base game's (:mod:`grandstrategy.axis_allies.game.combat`):
every choice the variant gives a player is a decision, every die a chance event.
"""
