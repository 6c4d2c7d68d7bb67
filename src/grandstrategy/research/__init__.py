"""Research interfaces: kernel rule sets as OpenSpiel games and PettingZoo environments.

- :mod:`.encoding`: fixed action ids, legal-action masks and per-seat observation vectors;
- :mod:`.openspiel_game`: the ``grandstrategy`` OpenSpiel game (imports ``pyspiel``);
- :mod:`.pettingzoo_env`: :class:`~.pettingzoo_env.KernelEnv`, an AEC environment.

The last two need the ``research`` extra (``pip install 'grandstrategy[research]'``); this package
itself imports neither. See docs/research.md.
"""
