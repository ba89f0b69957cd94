"""Our verdict on each answer CSRBench records is data: ``python -m harness.csrbench_verdicts`` computes them all and writes the README's table.

For each engine's recorded answer to each query our parser accepts, ``cgpm verify --answers FILE
--answers-format csrbench --match run`` under that engine's profile with ``t0 = "any"``, searched as
CSRBench's oracle searches (``harness.verify_reports``: t0 from the query's ``firstt0`` to it plus the
window's size in steps of ``system.timeunit``), over the stream of ``data/`` imported one event per
file. Each row says whether the answer is correct, the span of the oracle's reports it is, and the t0
that explains it; CSRBench's own verdict is shown where its ``output.html`` records one.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from engines.model.semantics import load_profile
from engines.model.stream import Stream
from harness.csrbench import BEGIN, ENGINES, ROOT, oracle_time_unit, queries, recorded, refusal, stream_time_unit
from harness.streams.turtle_files import read_turtle_files
from harness.verify_reports import describe, judge_answers

VERDICTS_BEGIN = BEGIN.replace("harness.csrbench:", "harness.csrbench_verdicts:")
VERDICTS_END = VERDICTS_BEGIN.replace("begin", "end")


def csrbench_stream(root: Path = ROOT) -> Stream:
    """CSRBench's stream in memory (34 events): one event per data file, at its file's timestamp."""
    return Stream(events=tuple(read_turtle_files(root / "data", time_unit=stream_time_unit(root))))


def verdict_rows(root: Path = ROOT) -> list[str]:
    """One table row per recorded answer of an accepted query, in query then engine order."""
    theirs = {(v["engine"], v["query"]): v for v in recorded("verdict", root)}
    files = {(a["engine"], a["query"]): a["file"] for a in recorded("answer", root)}
    rows = []
    stream = csrbench_stream(root)
    for query in queries(root):
        if refusal(query) is not None:
            continue
        for engine in ENGINES:
            profile = replace(load_profile(engine), t0="any")
            verdict = judge_answers(root / "answers" / files[engine, query.number], "csrbench", query.parsed(),
                                    stream, profile, match="run", first_t0=query.first_t0,
                                    t0_step=oracle_time_unit(root))
            known = theirs.get((engine, query.number))
            csr = f"t0 = {known['t0']}, matches {str(known['matches']).lower()}" if known else "not recorded"
            rows.append(f"| {query.number} | {engine} | {describe(verdict)} | {csr} |")
    return rows


def generated_part(root: Path = ROOT) -> str:
    lines = [VERDICTS_BEGIN, "", "| query | engine | our verdict (match run, t0 = any) | CSRBench's output.html |",
             "|---|---|---|---|", *verdict_rows(root)]
    return "\n".join(lines + ["", VERDICTS_END])


def write_readme(root: Path = ROOT) -> Path:
    readme = root / "README.md"
    text = readme.read_text(encoding="utf-8")
    start, end = text.index(VERDICTS_BEGIN), text.index(VERDICTS_END) + len(VERDICTS_END)
    readme.write_text(text[:start] + generated_part(root) + text[end:], encoding="utf-8")
    return readme


if __name__ == "__main__":
    print(write_readme().relative_to(ROOT.parents[1]))
