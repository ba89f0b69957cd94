"""``cgpm run --semantics PROFILE``: one engine's report stream under a profile, and its trace, one line per report.

The trace's first line is ``{"vars": [...]}`` (SELECT's variables, as the delta trace); each report is
``{"ts": T, "window": [OPEN, CLOSE], ...}`` with ``"relation"`` under rstream, ``"added"`` under istream,
``"removed"`` under dstream and both under delta (DESIGN.md section 2, Profiles). ``window`` is the
reported instance in ms as the profile's bounds read it, null for windows without instances. Rows are
projected as the delta trace's: one per full mapping (a bag), once each with SELECT DISTINCT, sorted so
that two runs write the same file.
"""

from __future__ import annotations

import argparse
import json
import os
import time

from common.errors import ConfigError
from engines.model.semantics import Report, load_profile
from engines.profiled import ProfiledRun
from harness.engines_setup import build_engine, close_engine
from harness.projection import Projection


def rows(projection: Projection, mappings) -> list[list]:
    """The projected rows of a report's full mappings, in a fixed order."""
    projected = projection.answers(set(mappings))
    listed = [list(row) for row, count in projected.items() for _ in range(count)]
    return sorted(listed, key=lambda row: ["" if term is None else term for term in row])


def report_line(report: Report, projection: Projection) -> dict:
    line: dict = {"ts": report.time, "window": None if report.window is None else list(report.window)}
    for key in ("relation", "added", "removed"):
        value = getattr(report, key)
        if value is not None:
            line[key] = rows(projection, value)
    return line


def run_under_profile(args: argparse.Namespace, queries, stream, trace_target) -> int:
    """Feed the engine the stream under ``args.semantics`` and write (with ``--trace``) or count its reports."""
    if len(queries) > 1:
        raise ConfigError("--semantics takes one --query")
    profile = load_profile(args.semantics)
    query = queries[0]
    engine = build_engine(args.engine, query, stream)
    projection = Projection(query)
    trace = None
    count = events = 0
    try:
        run = ProfiledRun(engine, query, profile)
        trace = trace_target(args.trace) if args.trace else None
        if trace:
            trace.write(json.dumps({"vars": projection.names}) + "\n")
        started = time.perf_counter()

        def written(reports: list[Report]) -> None:
            nonlocal count
            count += len(reports)
            if trace:
                for report in reports:
                    trace.write(json.dumps(report_line(report, projection), ensure_ascii=False) + "\n")

        for event in stream.events:
            events += 1
            written(run.push(event))
        written(run.finish())
        wall = time.perf_counter() - started
        if trace:
            trace.close()
            os.replace(trace.name, args.trace)
            trace = None
    finally:
        close_engine(engine)
        if trace:
            trace.close()
            os.unlink(trace.name)
    summary = {"engine": engine.name, "query": query.name, "window": query.window_spec, "semantics": profile.as_json(),
               "events": events, "reports": count, "wall_s": round(wall, 6)}
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"{engine.name} on {query.name} [{query.window_spec}] under {profile.name}: {events} events, "
              f"{count} reports in {wall:.3f}s")
    return 0
