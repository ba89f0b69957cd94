"""A site is built whole or not at all: it is written beside its target, its links checked, then renamed into place.

``build_site(OUT, RESULTS, HISTORY)`` reads the published runs under ``RESULTS`` (every layout
``harness.site.runs`` knows), the histories under ``HISTORY`` (plus one point per published run
that no history holds yet), and the paper claims (``harness.site.papers``), and writes the
pages of ``harness.site.pages`` with their figures. A broken local link is a bug of this module:
the build stops rather than leave a site with one. Each history's steps are tested once
(``history.step_changes``) and serve both its page and each run's "what regressed"; the build
reports each step it finishes to a ``harness.site.progress.SiteProgress``.
"""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from common.errors import CgpmError, ConfigError
from harness.bench import figures, gate, history
from harness.bench.acceptances import ACCEPTED_FILE, load_acceptances, with_acceptances
from harness.site import html, pages, plots
from harness.site.glance import step_into
from harness.site.links import broken_links
from harness.site.papers import judged, paper_of
from harness.site.progress import SiteProgress
from harness.site.runs import Run, find_runs, timed_out_bounds

SITE_FORMATS = ("svg",)


class SiteError(CgpmError):
    """The built site would have a broken link (a bug of cgpm site, reported rather than published)."""

    exit_code = 1


@dataclass
class Built:
    out: Path
    runs: int = 0
    papers: int = 0
    histories: int = 0


def run_slug(run: Run, results: Path) -> str:
    """The run's folder under ``results``, one level deep (``tpjoin--tpjoin-windows``; ``sparkwave--windows``)."""
    return "--".join(run.location.relative_to(results).parts) or "results"


def _run_figures(run: Run, directory: Path) -> tuple[list[tuple[str, str]], list[str]]:
    """(file, caption) of each figure drawn or copied into ``directory``, and why any other was not drawn."""
    made, not_drawn = [], []
    summary = run.summary
    if run.is_bench_run and len(summary) and "window" in summary:
        bounds = timed_out_bounds(run)
        for drawn, caption in ((figures.engines_at_window(summary, directory, formats=SITE_FORMATS, bounds=bounds),
                                "The engines side by side at the run's largest window: throughput, median with IQR "
                                "(hatched: an engine that timed out, at the most it can have reached)"),
                               (figures.throughput_vs_window(summary, directory, formats=SITE_FORMATS),
                                "Throughput against window size: median with IQR")):
            if isinstance(drawn, str):
                not_drawn.append(drawn)
            else:
                made.append((drawn[0], caption))
    for png in run.own_files(".png"):
        shutil.copy2(png, directory / png.name)
        made.append((png.name, f"{png.stem.replace('_', ' ')} (from the published folder)"))
    return made, not_drawn


def _histories(results: Path, history_dir: Path | None, runs: list[Run]) -> dict[str, pd.DataFrame]:
    """Benchmark -> its history: the stored file's rows, plus the published runs it does not hold yet."""
    stored = {}
    if history_dir is not None and history_dir.is_dir():
        stored = {path.stem: history.read_history(path) for path in sorted(history_dir.glob("*.csv"))}
    for run in (run for run in runs if run.is_bench_run):
        rows = history.run_rows(run, source=str(run.run_file.parent.relative_to(results)))
        known = stored.get(run.benchmark)
        if known is None:
            stored[run.benchmark] = rows
        elif not ((known["run_id"] == run.run_id) & (known["commit"] == run.commit)).any():
            stored[run.benchmark] = pd.concat([known, rows], ignore_index=True)
    return stored


def build_site(out: str | Path, results: str | Path = Path("results/published"),
               history_dir: str | Path | None = Path("results/history"), metric: str = "wall_s",
               threshold: float = 0.10, alpha: float = 0.05, progress: SiteProgress | None = None,
               accepted: str | Path | None = ACCEPTED_FILE) -> Built:
    """``metric`` is every history's but the regression suites' (``gate.SUITES``), gated on ``gate.GATE_METRIC``
    and shown so; ``accepted``: the acceptances (``harness.bench.acceptances``) whose steps are shown as accepted."""
    out, results = Path(out), Path(results)
    progress = progress or SiteProgress.silent()
    written_here = (out / "index.html").is_file() and (out / "style.css").is_file()
    if out.exists() and (not out.is_dir() or any(out.iterdir())) and not written_here:
        raise ConfigError(f"{out} exists and is not a site cgpm site wrote: it is replaced whole, so name a new folder")
    runs = find_runs(results)
    out.parent.mkdir(parents=True, exist_ok=True)
    building = Path(tempfile.mkdtemp(prefix=f".{out.name}.partial-", dir=out.parent))
    try:
        built = _write(building, results, runs, None if history_dir is None else Path(history_dir), metric, threshold,
                       alpha, progress, load_acceptances(accepted))
        broken = broken_links(building)
        progress.advance("the link check")
        if broken:
            raise SiteError(f"the site would have {len(broken)} broken link(s), first {broken[0]}")
        if out.exists():
            shutil.rmtree(out)
        building.rename(out)
    except BaseException:
        shutil.rmtree(building, ignore_errors=True)
        raise
    finally:
        progress.close()
    built.out = out
    return built


def _write(site: Path, results: Path, runs: list[Run], history_dir: Path | None, metric: str, threshold: float,
           alpha: float, progress: SiteProgress, acceptances: list) -> Built:
    built = Built(site)
    (site / "style.css").write_text(html.STYLE, encoding="utf-8")
    papers = judged(results)
    listed = [(run_slug(run, results), run, paper_of(run, results, papers)) for run in runs]
    stored = sorted(_histories(results, history_dir, runs).items())
    progress.start(len(listed) + len(papers) + 2 * len(stored) + 2)  # + the index and the link check
    steps, metrics = {}, {benchmark: gate.GATE_METRIC if benchmark in gate.SUITES else metric for benchmark, _ in stored}
    for benchmark, frame in stored:
        steps[benchmark] = with_acceptances(history.step_changes(frame, metrics[benchmark], threshold, alpha),
                                            acceptances)
        progress.advance(f"the steps of {benchmark}")
    for slug, run, paper in listed:
        folder = site / "runs" / slug
        folder.mkdir(parents=True)
        made, not_drawn = _run_figures(run, folder)
        step = (step_into(steps[run.benchmark], run.run_id, run.commit, metrics[run.benchmark])
                if run.benchmark in steps else None)
        (folder / "index.html").write_text(pages.run_page(run, str(run.run_file), made, not_drawn, paper, step),
                                           encoding="utf-8")
        progress.advance(f"run {slug}")
    built.runs = len(listed)
    slugs = {run.location.relative_to(results).as_posix(): slug for slug, run, _ in listed}  # as claims name them
    (site / "papers").mkdir()
    statuses = []
    for paper in papers.values():
        mine = [entry for entry in listed if entry[2] == paper.name]
        (site / pages.paper_path(paper.name)).write_text(pages.paper_page(paper, mine, slugs), encoding="utf-8")
        statuses.append((paper.name, paper.status(len(mine))))
        progress.advance(f"paper {paper.name}")
    built.papers = len(papers)
    (site / "history").mkdir()
    run_slugs = {(run.run_id, run.commit): slug for slug, run, _ in listed}
    claims = pd.DataFrame(columns=list(history.CLAIM_COLUMNS))
    if history_dir is not None and (history_dir / history.CLAIMS_FILE).is_file():
        claims = history.read_claim_history(history_dir / history.CLAIMS_FILE)
    rows = []
    for benchmark, frame in stored:
        changes = history.claim_changes(claims[claims["benchmark"] == benchmark])
        rows.append(_history(site, benchmark, frame, steps[benchmark], run_slugs, metrics[benchmark], threshold, alpha,
                             changes))
        progress.advance(f"history {benchmark}")
    built.histories = len(rows)
    (site / "index.html").write_text(pages.index_page(listed, statuses, rows), encoding="utf-8")
    progress.advance("the index")
    return built


def _history(site: Path, benchmark: str, frame: pd.DataFrame, steps: pd.DataFrame, run_slugs: dict, metric: str,
             threshold: float, alpha: float, claims: pd.DataFrame) -> dict:
    history.history_path(benchmark)  # a name that could not name a file is refused here
    points = history.points(frame)
    made = []
    if points.groupby("machine").size().max() > 1:  # one run per machine: a plot of single points says nothing
        made.append((plots.history_plot(frame, points, metric, site / "history" / f"{benchmark}.svg").name,
                     f"{benchmark}: {metric} at each run, per cell"))
    if len(steps):
        last = steps[(steps["base_run"] == steps["base_run"].iloc[-1]) & (steps["run"] == steps["run"].iloc[-1])]
        title = f"latest step: {last['base_commit'].iloc[0][:10]} -> {last['commit'].iloc[0][:10]} ({last['machine'].iloc[0]})"
        made.append((plots.compare_plot(last, threshold, site / "history" / f"{benchmark}-compare.svg", title).name,
                     f"cgpm compare's test on the {title}"))
    (site / pages.history_path(benchmark)).write_text(
        pages.history_page(benchmark, frame, points, steps, made, run_slugs, metric, threshold, alpha, claims),
        encoding="utf-8")
    latest = steps[steps["commit"] == steps["commit"].iloc[-1]] if len(steps) else steps
    news = latest["change"].value_counts()
    summary = "; ".join(f"{n} {name}" for name, n in news.items()) if len(latest) else "no step yet"
    regressions = int((claims["change"] == "regression").sum())
    summary += f"; {regressions} claim regression(s)" if regressions else ""
    return {"benchmark": benchmark, "runs": len(points), "machines": points["machine"].nunique(), "latest step": summary}
