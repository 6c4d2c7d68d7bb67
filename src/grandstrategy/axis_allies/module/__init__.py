"""The A&A map module: format (schema), loading and checks, and the TripleA importer.

See docs/aa-module.md. Import :func:`load_module` / :func:`check_module` from here.
"""

from grandstrategy.axis_allies.module.loader import (
    DEFAULT_MODULE_DIR,
    CheckReport,
    check_module,
    load_module,
)
from grandstrategy.axis_allies.module.world import MapModule
from grandstrategy.core.datafiles import Problem

__all__ = ["DEFAULT_MODULE_DIR", "CheckReport", "MapModule", "Problem", "check_module", "load_module"]
