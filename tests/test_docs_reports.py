"""The worked report examples of DESIGN.md section 2 (Profiles) hold for the oracle and, under the profiles it takes, for reeval."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engines.baselines.reeval import ReevalEngine
from engines.model.query import parse_query
from engines.model.semantics import load_profile
from engines.native_reports import run_profiled
from oracles.reports import expected_reports
from tests.conformance.checks import PREFIXES, build_stream

DOC = Path(__file__).resolve().parents[1] / "DESIGN.md"
BLOCKS = re.findall(r"```report-example\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
QUERY = parse_query(PREFIXES + "SELECT ?x WHERE { ?x :p :o }", window="sliding:4:2")
REPORT = re.compile(r"\s*(-?\d+) ([\[(])(-?\d+),(-?\d+)([\])]) (.*)")
OPENING = {"[o,c)": "[)", "(o,c]": "(]", "[o,c]": "[]"}


def _stream(line: str):
    events = []
    for item in line.split(":", 1)[1].split("|"):
        ts, name = item.split()
        subject, _, predicate = name.partition("/")
        events.append((int(ts), [f"+ {subject} :{predicate or 'p'} :o"]))
    return build_stream(events)


def _cases():
    for number, block in enumerate(BLOCKS):
        lines = block.strip().splitlines()
        profile, expected = None, {}
        for line in lines[1:]:
            if not line.startswith(" "):
                profile = line.rstrip(":")
                expected[profile] = []
            else:
                expected[profile].append(line)
        for profile, reports in expected.items():
            yield pytest.param(lines[0], profile, reports, id=f"example{number + 1}:{profile}")


def _written(report, bounds: str) -> str:
    """A report as the page writes it."""
    opening, closing = OPENING[bounds]
    rows = [f"{key}: {' '.join(sorted(m[0][len('<http://ex/'):-1] for m in getattr(report, key)))}".rstrip()
            for key in ("relation", "added", "removed") if getattr(report, key) is not None]
    return f"{report.time} {opening}{report.window[0]},{report.window[1]}{closing} " + " | ".join(rows)


def test_the_page_has_an_example_for_every_shipped_profile():
    from engines.model.semantics import named_profiles

    written = {profile for _, profile, _ in (case.values for case in _cases())}
    assert len(BLOCKS) >= 2 and written == set(named_profiles())


@pytest.mark.parametrize(("events", "profile_name", "lines"), list(_cases()))
def test_oracle_and_reeval_give_the_pages_reports(events, profile_name, lines):
    profile, stream = load_profile(profile_name), _stream(events)
    expected = [line.strip() for line in lines]
    assert all(REPORT.fullmatch(line) for line in lines), lines
    assert [_written(r, profile.bounds) for r in expected_reports(QUERY, stream, profile)] == expected
    if ReevalEngine.capabilities.profile_refusal(profile) is None:
        reports = run_profiled(ReevalEngine(QUERY), QUERY, profile, stream.events)
        assert [_written(r, profile.bounds) for r in reports] == expected
