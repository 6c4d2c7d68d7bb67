"""The Cataclysm module format: schema, loader, checks and the loaded, immutable world.

A *module* is a directory of YAML files that describes everything game-specific that the
rules text leaves out: the two maps, the powers and their status cards, the counter mix, the
crisis tables and the scenarios. See ``docs/module-format.md``.
"""

from grandstrategy.cataclysm.module.loader import DEFAULT_MODULE_DIR, CheckReport, check_module, load_module
from grandstrategy.cataclysm.module.world import Module

__all__ = ["DEFAULT_MODULE_DIR", "CheckReport", "Module", "check_module", "load_module"]
