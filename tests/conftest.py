"""Shared test configuration: the hypothesis "ci" profile (no deadline, a modest number of examples).

It is loaded by default; set HYPOTHESIS_PROFILE=<name> to pick another registered profile
(e.g. "thorough" for a long local run).
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile("ci", deadline=None, max_examples=40,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", deadline=None, max_examples=500,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
