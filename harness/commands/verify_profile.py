"""``cgpm verify --semantics PROFILE`` and ``--answers FILE``: exit 0 when the report stream is the oracle's, 1 when not, 2 on bad input.

``--semantics PROFILE --engine E`` drives the engine under the profile and compares its reports with
the oracle's report by report (``harness.verify_reports``); a divergence names the first divergent
report, its window, and the rows missing and extra. ``--answers FILE`` (in place of ``--engine``)
judges a recorded report stream: ``--answers-format trace`` (``cgpm run --semantics --trace``) or
``csrbench`` (CSRBench's answer JSON), the whole stream or with ``--match run`` a contiguous run of
it. Under a profile with ``t0 = "any"`` the origins are searched (``harness.verify_reports``):
``--first-t0`` (0) to it plus the window's range, in steps of ``--t0-step`` (default CSRBench's
``system.timeunit``, 1000 ms).

A wrong engine gets a reproducer as plain ``verify`` does (``harness.reproduce``): the events up to the first
divergent report's time, a suffix of them, then shrunk, and the ``cgpm verify --semantics`` command that fails
on it alone.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from common.errors import ConfigError
from engines.model.semantics import load_profile
from harness.csrbench import oracle_time_unit
from harness.recorded_reports import FORMATS
from harness.streams.event_index import facts_of, first_event_where
from harness.verify_reports import describe, judge_answers, report_oracle, verify_engine_reports


def add_profile_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--semantics", metavar="PROFILE",
                        help="compare report streams under an operational-semantics profile (cgpm, csparql, cqels, "
                        "sparqlstream, rspjs, rsp4j, kolibrie, spark-microbatch, or a TOML file; DESIGN.md section 2, Profiles)")
    parser.add_argument("--answers", type=Path, metavar="FILE",
                        help="in place of --engine: judge a recorded report stream against the stream and query")
    parser.add_argument("--answers-format", choices=FORMATS, default="trace",
                        help="trace (cgpm run --semantics --trace, the default) or csrbench (CSRBench's answer JSON)")
    parser.add_argument("--match", choices=("all", "run"), default="all",
                        help="all: the whole report stream (default); run: a contiguous run of it (CSRBench's rule)")
    parser.add_argument("--first-t0", type=int, default=0, metavar="MS", help="t0 = any: the first origin tried (0)")
    parser.add_argument("--t0-step", type=int, metavar="MS",
                        help="t0 = any: the step between origins tried (default CSRBench's system.timeunit, 1000 ms)")


def check_profile_arguments(args: argparse.Namespace) -> None:
    """One of --engine and --answers; the --answers options only with --answers."""
    if (args.engine is None) == (args.answers is None):
        raise ConfigError("give one of --engine (an engine to run) and --answers FILE (a recorded report stream)")
    if args.answers is None and (args.match != "all" or args.answers_format != "trace"):
        raise ConfigError("--match and --answers-format judge a recorded answer: give --answers FILE")


def run_under_profile(args: argparse.Namespace, queries, stream) -> int:
    if len(queries) > 1:
        raise ConfigError("--semantics and --answers take one --query")
    query, profile = queries[0], load_profile(args.semantics)
    if args.answers is None:
        who, verdict = verify_engine_reports(args.engine, query, stream, profile, args.oracle, master=args.master)
    else:
        who = str(args.answers)
        step = args.t0_step if args.t0_step is not None else oracle_time_unit()
        verdict = judge_answers(args.answers, args.answers_format, query, stream, profile, match=args.match,
                                oracle=args.oracle, first_t0=args.first_t0, t0_step=step)
    result = verdict.verdict
    reproducer = None
    if args.answers is None and not verdict.agrees and not args.no_reproducer:
        reproducer = _reproduce(args, who, query, stream, profile, result.divergence.time)
    if args.json:
        print(json.dumps({"engine" if args.answers is None else "answers": who, "query": query.name,
                          "window": query.window_spec, "semantics": profile.as_json(), "match": args.match,
                          "agrees": verdict.agrees, "t0": verdict.t0, "t0_tried": verdict.tried,
                          "expected_reports": result.expected, "reports": result.recorded,
                          "span": list(result.span) if result.span else None,
                          "first_divergence": result.divergence.as_json() if result.divergence else None,
                          "reproducer": reproducer}))
    else:
        print(f"{who} on {query.name} [{query.window_spec}] under {profile.name}: {describe(verdict)}")
        if result.divergence is not None:
            print(f"  first divergence at {result.divergence.describe()}")
        if reproducer:
            print(f"  reproducer: {reproducer}")
    return 0 if verdict.agrees else 1


def _reproduce(args: argparse.Namespace, engine_name: str, query, stream, profile, time_of_divergence: int | None) -> str:
    """A shrunk stream on which the engine's reports still diverge under the profile, written out; its directory."""
    from harness.reproduce import failing_suffix, reproducer_directory, shrink, write_reproducer

    oracle = report_oracle(args.oracle)

    def still_fails(candidate) -> bool:
        try:
            return not verify_engine_reports(args.engine, query, candidate, profile, oracle)[1].agrees
        except Exception:  # a candidate the engine crashes on still reproduces a bug
            return True

    # the divergent report is made once the events up to its time are in (a later one closes no earlier instance)
    beyond = None if time_of_divergence is None else first_event_where(stream, lambda ts: ts > time_of_divergence)
    end = facts_of(stream).events - 1 if beyond is None else beyond[0] - 1
    small = shrink(failing_suffix(stream, end, still_fails), still_fails)
    directory = args.reproducer or reproducer_directory(engine_name, query.name, time.strftime("%Y%m%d-%H%M%S"))
    write_reproducer(directory, args.engine, query, small, oracle=oracle, extra=("--semantics", args.semantics))
    return str(directory)
