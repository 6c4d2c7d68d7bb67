"""Cataclysm rules as pure functions over numbers: the building blocks the rules engine calls.

Each function cites the Living Rules section it implements.
"""
