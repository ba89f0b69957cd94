#!/usr/bin/env python3
"""The property tests with fresh random examples (Hypothesis profile ``explore``), stopped at a time bound; fails on any failure.

``make test`` runs the property tests derandomized (profile ``ci``): the same examples every run, so
it cannot flake and cannot find anything new. This step draws new examples each run, more of them,
for at most ``--seconds`` (default 420): once the bound is passed, the tests not started yet are
skipped (one test's length is bounded by its examples), so pytest always finishes and reports. Reaching
the bound is not a failure: the tests that ran are counted. A failure prints Hypothesis's falsifying
example and ``@reproduce_failure`` blob; keep it as a named test in ``tests/test_found_by_exploration.py`` (with ``@example`` or as a plain case) so
``make test`` checks it from then on.

    scripts/explore.py [--seconds 420]        # CI runs it after `make test` (.ci/run)
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROPERTY_TESTS = [
    "tests/test_properties.py",
    "tests/test_differential.py",
    "tests/test_stateful.py",
    "tests/test_many_queries.py",
    "tests/test_differential_streams.py",
    "tests/engines/spectra/test_spectra_properties.py",
    "tests/engines/spectra/test_spectra_oracle.py",
    "tests/engines/delta/test_delta_vs_baselines.py",
    "tests/engines/delta/test_delta_vs_oracle.py",
    "tests/engines/delta/test_delta_stateful.py",
    "tests/oracles/test_oracle_agreement.py",
    "tests/oracles/test_plain_oracle.py",
    "tests/engines/test_filters.py",
    "tests/engines/test_terms.py",
]


class TimeBound:
    """A pytest plugin: tests that would start after the deadline are skipped, and counted."""

    def __init__(self, seconds: float) -> None:
        self.deadline = time.monotonic() + seconds
        self.ran = self.skipped = self.failed = 0

    def pytest_runtest_setup(self, item):
        import pytest

        if time.monotonic() > self.deadline:
            self.skipped += 1
            pytest.skip("explore: time bound reached")

    def pytest_runtest_logreport(self, report):
        if report.when == "call":
            self.ran += 1
        if report.failed:
            self.failed += 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=float(os.environ.get("EXPLORE_SECONDS", 420)))
    parser.add_argument("tests", nargs="*", default=PROPERTY_TESTS)
    args = parser.parse_args(argv)
    os.environ["HYPOTHESIS_PROFILE"] = "explore"  # read by tests/conftest.py when pytest loads it
    os.chdir(ROOT)
    sys.path.insert(0, str(ROOT))
    import pytest

    bound = TimeBound(args.seconds)
    code = pytest.main(["-q", "-p", "no:cacheprovider", "-rf", *args.tests], plugins=[bound])
    summary = f"{bound.ran} tests ran, {bound.skipped} not started within the {args.seconds:.0f} s bound"
    if bound.failed or code not in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED) or not bound.ran:
        print(f"explore: FAILED ({summary}; exit {int(code)}). Keep each falsifying example above as a named test "
              "in tests/test_found_by_exploration.py.", file=sys.stderr)
        return 1
    print(f"explore: no failure found ({summary})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
