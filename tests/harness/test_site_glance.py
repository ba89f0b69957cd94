"""A run page answers at a glance which engine is fastest and what regressed; the site says what each run records (its
commit, its load, why it has no cells), draws a timed-out engine, and reports its progress while it builds."""

from __future__ import annotations

import io
import json

import pandas as pd
import pytest

from harness.bench import store
from harness.cli import main
from harness.site.build import build_site
from harness.site.glance import fastest_per_workload
from harness.site.progress import SiteProgress
from tests.harness.site_results import WINDOWS, _info, _repetitions, make_results


class Clock:
    """A clock that moves ``step`` seconds each time it is read."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def _extras(published) -> None:
    """A run with a timed-out engine and a loaded machine, a script recording its commit per stream, a lone result."""
    timeouts = published / "timeouts"
    timeouts.mkdir()
    rows = _repetitions(("L1",), WINDOWS[1:], seed=5)
    out = rows["engine"] == "spectra-rev"
    rows.loc[out, ["status", "error"]] = ["timeout", "passed its time-out"]
    rows.loc[out, ["wall_s", "triples_per_s"]] = float("nan")
    rows["latency_mean_ms"] = 4.0
    rows.to_csv(timeouts / "repetitions.csv", index=False)
    info = _info("timeouts", "timeouts", "f" * 40, "2026-01-04T00:00:00+00:00")
    info["machine"]["load_average"] = [1.23456, 2.5, 17.0]
    info["config"]["timeout_s"] = 5
    store.write_json(timeouts / store.RUN_FILE, info)
    generation = published / "generation" / "scale"
    generation.mkdir(parents=True)
    streams = {name: {"stream": name, "git": {"commit": "e" * 40, "dirty": False}} for name in ("lubm-1", "taxi-2")}
    (generation / "run.json").write_text(json.dumps({"schema_version": "cgpm-generation-bench/1", "streams": streams}))
    pd.DataFrame({"stream": ["lubm-1", "taxi-2"], "seconds": [1.5, 2.5]}).to_csv(generation / "repetitions.csv",
                                                                                  index=False)
    (published / "delta" / "lone-run.json").write_text(json.dumps({"engine": "spectra", "answers": 1014}))


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("glance")
    published, histories = make_results(root / "results")
    _extras(published)
    log = io.StringIO()
    progress = SiteProgress(log, terminal=False, clock=Clock(4.0), interval_s=10.0)
    site = build_site(root / "out", published, histories, progress=progress).out
    return site, progress, log.getvalue()


def test_the_run_page_names_the_fastest_engine_of_each_workload_and_by_how_much(built):
    site, _, _ = built
    page = (site / "runs" / "spectra-demo" / "index.html").read_text()
    assert 'id="fastest"' in page and "<td>L1 · 1 s / 100 ms</td><td>spectra</td>" in page
    demo = pd.read_csv(site.parent / "results" / "published" / "spectra-demo" / "repetitions.csv")
    table = fastest_per_workload(demo.groupby(["engine", "query", "window"], as_index=False)
                                 .agg(triples_per_s=("triples_per_s", "median"), status=("status", "first")))
    assert list(table["fastest"]) == ["spectra"] * 4 and list(table["next"]) == ["spectra-rev"] * 4  # scan: the floor
    assert list(table["workload"]) == ["L1 · 1 s / 100 ms", "L1 · 10 s / 100 ms", "L7 · 1 s / 100 ms",
                                       "L7 · 10 s / 100 ms"]  # by query, then by window range (not as text)
    assert table["x the next"].between(2 * 1.6 * 0.9, 2 * 1.6 * 1.1).all()  # spectra-rev: 2x the time, then 1.6x
    timed = (site / "runs" / "timeouts" / "index.html").read_text()
    assert "<td>L1 · 10 s / 100 ms</td><td>spectra</td>" in timed
    # spectra-rev timed out: no next engine to rank, so no ratio, and it is named apart
    assert '<td></td><td></td><td class="num">1</td><td>spectra-rev</td></tr>' in timed


def test_the_run_page_lists_what_regressed_since_the_run_before_by_compare_s_rule(built):
    site, _, _ = built
    page = (site / "runs" / "spectra-demo" / "index.html").read_text()
    assert 'id="regressed"' in page and "Against spectra-demo-old (commit aaaaaaaaaa)" in page
    assert "4 of 12 cell(s) regressed" in page
    section = page[page.index('id="regressed"'):page.index('id="cells"')]
    assert section.count("<td>spectra-rev</td>") == 4 and section.count("<td>slower</td>") == 4
    assert 'id="regressed"' not in (site / "runs" / "sparkwave--windows" / "index.html").read_text()  # a first run


def test_a_timed_out_engine_is_drawn_as_a_hatched_bound(built):
    site, _, _ = built
    drawn = (site / "runs" / "timeouts" / "engines_at_window.svg").read_text()
    assert "<pattern" in drawn  # matplotlib's SVG hatch
    assert "<pattern" not in (site / "runs" / "sparkwave--static" / "engines_at_window.svg").read_text()


def test_commits_load_and_empty_runs_are_said_plainly(built):
    site, _, _ = built
    index = (site / "index.html").read_text()
    assert "unknown" not in index and "<td>eeeeeeeeee</td>" in index and "<td>not recorded</td>" in index
    assert '">lone</a>' in index  # a lone file is named by its own prefix, not its folder
    assert "none: a script&#x27;s folder, 1 table(s)" in index and "none: a script&#x27;s result file" in index
    assert ">0</td>" not in index
    timed = (site / "runs" / "timeouts" / "index.html").read_text()
    assert "load average at start: 1.23, 2.50, 17.00 (1, 5, 15 min) on 2 logical CPUs" in timed
    text = (site / "runs" / "delta--lone" / "index.html").read_text()
    assert "Published tables" not in text and "The run file as published" in text and "1014" in text
    assert "code: commit not recorded" in text
    generation = (site / "runs" / "generation--scale" / "index.html").read_text()
    assert "code: commit eeeeeeeeee" in generation and "Published tables" in generation


def test_the_build_reports_every_step_at_intervals_when_not_on_a_terminal(built):
    _, progress, log = built
    lines = log.splitlines()
    assert progress.total > 10 and progress.done == progress.total
    assert lines[0].startswith(f"cgpm site: {progress.total} steps to build")
    assert lines[-1].startswith(f"cgpm site: {progress.total}/{progress.total} steps done")
    middle = lines[1:-1]
    assert middle and len(middle) < progress.total  # at intervals (a step is 4 s of the clock, a line 10 s), not each
    assert all(" steps, last " in line for line in middle)


def test_progress_is_a_bar_on_a_terminal_and_lines_at_intervals_elsewhere():
    clock = Clock(0.0)
    log = io.StringIO()
    progress = SiteProgress(log, terminal=False, clock=clock, interval_s=10.0)
    progress.start(3)
    clock.now = 5.0
    progress.advance("run a")
    clock.now = 11.0
    progress.advance("run b")
    progress.advance("run c")
    progress.close()
    assert log.getvalue().splitlines() == ["cgpm site: 3 steps to build (a page each, the histories' tests, the link "
                                           "check) (0 s)", "cgpm site: 2/3 steps, last run b (11 s)",
                                           "cgpm site: 3/3 steps done (11 s)"]
    screen = io.StringIO()
    bar = SiteProgress(screen, terminal=True, clock=clock)
    bar.start(2)
    bar.advance("run a")
    bar.close()
    assert "cgpm site" in screen.getvalue() and "\r" in screen.getvalue()
    silent = io.StringIO()
    quiet = SiteProgress(silent, enabled=False)
    quiet.start(2)
    quiet.advance("run a")
    quiet.close()
    assert silent.getvalue() == ""


def test_the_command_logs_its_progress_to_stderr(tmp_path, capsys):
    published, histories = make_results(tmp_path / "results")
    assert main(["site", "--out", str(tmp_path / "site"), "--results", str(published), "--history", str(histories)]) == 0
    captured = capsys.readouterr()
    assert "steps to build" in captured.err and "steps done" in captured.err and "site written to" in captured.out


def test_a_run_file_without_commit_or_machine_says_not_recorded():
    from harness.bench.provenance import load_text
    from harness.bench.report import run_facts

    facts = "\n".join(run_facts({"run_id": "r"}))
    assert "commit not recorded" in facts and "machine: not recorded" in facts and "unknown" not in facts
    assert "load average at start: not recorded" in facts
    assert load_text({"load_average": [0.5, 0.25, 0.125]}) == "0.50, 0.25, 0.12 (1, 5, 15 min)"
