"""Playing Cataclysm (or any kernel rule set): seats, bots, the terminal game and simulations.

- :mod:`.seats`: the SEATS text (``germany=human,*=bot:random``) and the seats file of a save;
- :mod:`.bots`: :class:`~.bots.RandomBot` and :class:`~.bots.HeuristicBot`;
- :mod:`.session`: a game on disk with its seats, saved after every action, with undo;
- :mod:`.terminal`: the ``grandstrategy play`` screen and its commands;
- :mod:`.simulate`: many seeded bot games, in parallel, with reports;
- :mod:`.commands`: the ``new``, ``play``, ``simulate`` and ``replay`` commands.

See docs/play.md.
"""
