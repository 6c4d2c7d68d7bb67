"""Suite-wide settings: no test depends on how fast a shared, busy machine runs it."""

from __future__ import annotations

from hypothesis import HealthCheck, settings

# Hypothesis would otherwise fail an example that takes over 200 ms or data that is slow to generate:
# wall-clock checks in disguise. Speed is measured in benchmarks/, never asserted in tests.
settings.register_profile("suite", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("suite")
