"""The Historical Edition variant of Axis & Allies Revised (AARHE), as a layer on the base game.

The base game (:mod:`grandstrategy.axis_allies.game`, Revised with LHTR 1.3) runs the sequence of
play and combat; this package overrides its :class:`~grandstrategy.axis_allies.game.profile.Profile`
hooks and adds the variant's data (``data/``), turn structure and economy, and its combat cycles
(:mod:`.combat`). Rules are cited by the variant document's line ("S3:L206"), as the brief does.
"""
