"""The game kernel shared by every rule set: chance, decisions, actions, saves, views.

Nothing in ``core`` imports a rule set, a bot or the command line.
"""
