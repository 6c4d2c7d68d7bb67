"""Cataclysm: A Second World War (GMT Games): the module format, the shipped world, and later the rules."""
