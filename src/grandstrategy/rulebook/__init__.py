"""The rules assistant: an index of rule sections and cited answers; data plus look-up, no game logic."""
