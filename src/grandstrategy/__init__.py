"""grandstrategy: an engine for World War II grand-strategy board games.

The flagship rule set is Cataclysm: A Second World War; the Axis & Allies family follows.
"""

__version__ = "0.1.0"
