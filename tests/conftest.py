"""Hypothesis profiles: ``ci`` (the default) runs enough examples to matter, ``dev`` fewer; choose with HYPOTHESIS_PROFILE.

``ci`` is derandomized, so `make test` sees the same examples every run. ``explore`` draws new random
examples each run, more of them (scripts/explore runs it as a separate, time-bounded CI step; a failure it
finds is kept as a named test in tests/test_found_by_exploration.py). ``mutate`` is ``ci`` with fewer
examples, for the mutation runs (scripts/mutate.py), where each surviving mutant runs every test reaching it.
"""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", deadline=None, max_examples=100, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", deadline=None, max_examples=30, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "explore", deadline=None, max_examples=400, derandomize=False, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "mutate", deadline=None, max_examples=25, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
