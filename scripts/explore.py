#!/usr/bin/env python3
"""The property tests with fresh random examples (Hypothesis profile ``explore``), stopped at a time bound; fails on any failure.

``make test`` runs the property tests derandomized (profile ``ci``): the same examples every run, so
it cannot flake and cannot find anything new. This step draws new examples each run, more of them,
for at most ``--seconds`` (default 420). Reaching the bound is not a failure: the tests that ran are
counted. A failure prints Hypothesis's falsifying example and ``@reproduce_failure`` blob; keep it as
a named test in ``tests/test_found_by_exploration.py`` (with ``@example`` or as a plain case) so
``make test`` checks it from then on.

    scripts/explore.py [--seconds 420]        # CI runs it after `make test` (.ci/run)
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROPERTY_TESTS = [
    "tests/test_properties.py",
    "tests/test_differential.py",
    "tests/test_stateful.py",
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=float(os.environ.get("EXPLORE_SECONDS", 420)))
    parser.add_argument("tests", nargs="*", default=PROPERTY_TESTS)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        report = Path(scratch) / "explore.xml"
        command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
                   f"--junitxml={report}", *args.tests]
        env = os.environ | {"HYPOTHESIS_PROFILE": "explore"}
        process = subprocess.Popen(command, cwd=ROOT, env=env, start_new_session=True)
        bounded = False
        try:
            code = process.wait(timeout=args.seconds)
        except subprocess.TimeoutExpired:
            bounded = True
            os.killpg(process.pid, signal.SIGINT)  # pytest stops, reports and writes its junit file
            try:
                code = process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                code = process.wait()
        if not report.is_file():
            print(f"explore: pytest wrote no report (exit {code})", file=sys.stderr)
            return 1
        suites = ElementTree.parse(report).getroot()
        totals = {key: sum(int(s.get(key, 0)) for s in suites.iter("testsuite")) for key in ("tests", "failures", "errors")}
    ran = f"{totals['tests']} tests ran" + (f", stopped at the {args.seconds:.0f} s bound" if bounded else "")
    if not totals["tests"]:
        print(f"explore: no test finished within {args.seconds:.0f} s (exit {code}): the bound is too small", file=sys.stderr)
        return 1
    if totals["failures"] or totals["errors"] or (not bounded and code != 0):
        print(f"explore: FAILED ({ran}; {totals['failures']} failures, {totals['errors']} errors). Keep each falsifying "
              "example as a named test in tests/test_found_by_exploration.py.", file=sys.stderr)
        return 1
    print(f"explore: no failure found ({ran})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
