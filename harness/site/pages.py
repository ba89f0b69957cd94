"""Each page of the site says where its numbers come from: a run's page names its commit and machine, a history page its runs.

Pages are built from fragments of ``harness.site.html`` only (every text escaped). Paths inside
the site: ``index.html``, ``runs/SLUG/index.html``, ``papers/PAPER.html``, ``history/BENCHMARK.html``.
"""

from __future__ import annotations

import pandas as pd

from harness.bench.history import machine_label, results_table
from harness.bench.report import run_facts
from harness.bench.summary import display_table
from harness.site import html
from harness.site.papers import Paper
from harness.site.runs import Run

STEP_NEWS = ("slower", "failed", "faster")
TABLE_ROWS = 200  # rows of a script's own table shown on its run page


def run_path(slug: str) -> str:
    return f"runs/{slug}/index.html"


def paper_path(paper: str) -> str:
    return f"papers/{paper}.html"


def history_path(benchmark: str) -> str:
    return f"history/{benchmark}.html"


def _fact(line: str) -> str:
    return html.escape(line.removeprefix("- ").replace("`", ""))


def _script_facts(info: dict) -> list[str]:
    """What a script's own run.json says: its commit, machine, command and settings, as it wrote them."""
    machine, git = info.get("machine", {}), info.get("git", {})
    facts = [f"code: commit {git.get('commit') or 'unknown'}" + (" (with uncommitted changes)" if git.get("dirty") else ""),
             f"machine: {machine_label(machine)}", f"command: {' '.join(map(str, info.get('command') or []))}"]
    facts += [f"{key} = {value}" for key, value in (info.get("config") or {}).items()]
    return [html.escape(fact) for fact in facts]


def run_page(run: Run, source: str, figures: list[tuple[str, str]], not_drawn: list[str], paper: str | None) -> str:
    """``figures``: (file name in the run's folder of the site, caption); ``not_drawn``: why a figure is missing."""
    facts = [_fact(line) for line in run_facts(run.info)] if run.is_bench_run else _script_facts(run.info)
    parts = [html.items(facts
                        + [f"published as {html.escape(source)} (in the repository)"]
                        + (["benchmark history: " + html.link(f"../../{history_path(run.benchmark)}", run.benchmark)]
                           if run.is_bench_run else [])
                        + ([f"paper: {html.link(f'../../{paper_path(paper)}', paper)}"] if paper else []))]
    if figures or run.is_bench_run:
        parts.append(html.heading("Figures", anchor="figures"))
        parts += [html.figure(name, caption) for name, caption in figures]
        parts += [html.paragraph(f"Not drawn: {reason}.") for reason in not_drawn]
    if run.is_bench_run:
        parts.append(html.heading("Cells: median [IQR] over the finished repetitions", anchor="cells"))
        summary = run.summary
        parts.append(html.table(display_table(summary)) if len(summary) else html.paragraph("no cell was stored"))
    else:
        parts.append(html.heading("Published tables", anchor="cells"))
        parts.append(html.paragraph("Made by a script, not by cgpm bench: its tables are shown as published."))
        for path in run.own_files(".csv"):
            frame = pd.read_csv(path)
            parts.append(html.heading(f"{path.name}: {len(frame)} rows" + (f", the first {TABLE_ROWS}" if len(frame)
                                                                          > TABLE_ROWS else ""), level=3))
            parts.append(html.table(frame.head(TABLE_ROWS)))
    documents = run.own_files(".md")
    if documents:
        parts.append(html.heading("The folder's own notes", anchor="notes"))
        for document in documents:
            parts.append(f"<details><summary>{html.escape(document.name)}</summary>"
                         f"{html.preformatted(document.read_text(encoding='utf-8'))}</details>")
    crumbs = [(history_path(run.benchmark), f"history of {run.benchmark}")] if run.is_bench_run else []
    return html.page(f"Run {run.run_id}", "\n".join(parts), depth=2, crumbs=crumbs)


def runs_table(runs: list[tuple[str, Run, str | None]], depth: int) -> str:
    """A row per run: (slug, run, paper)."""
    root = "../" * depth
    rows = [{"run": run.run_id, "benchmark": run.benchmark, "paper": paper or "", "commit": run.commit[:10],
             "created": run.info.get("created"), "cells": len(run.summary),
             "machine": machine_label(run.info.get("machine", {})), "slug": slug} for slug, run, paper in runs]
    frame = pd.DataFrame(rows, columns=["run", "benchmark", "paper", "commit", "created", "cells", "machine", "slug"])
    links = {"run": {row["run"]: root + run_path(row["slug"]) for row in rows},
             "benchmark": {run.benchmark: root + history_path(run.benchmark) for _, run, _ in runs if run.is_bench_run},
             "paper": {row["paper"]: root + paper_path(row["paper"]) for row in rows if row["paper"]}}
    return html.table(frame.drop(columns=["slug"]), links=links)


def verdicts_table(verdicts: list, slugs: dict[str, str], depth: int) -> str:
    """A row per claim: our value beside the paper's, the verdict coloured, linked to the run it was judged from."""
    root = "../" * depth
    rows = []
    for verdict in verdicts:
        value = "" if verdict.value is None else (">= " if verdict.bound else "") + html.number(verdict.value)
        if verdict.spread is not None and verdict.value is not None:
            value += f" [{html.number(verdict.spread[0])}–{html.number(verdict.spread[1])}]"
        rows.append({"claim": verdict.claim_id, "says": verdict.text, "relation": verdict.relation,
                     "ours: median [IQR]": value, "n": verdict.n,
                     "paper": "" if verdict.paper_value is None else verdict.paper_value, "verdict": verdict.verdict,
                     "expected": verdict.expected, "judged from": verdict.published, "how": verdict.note,
                     "css": verdict.verdict})
    frame = pd.DataFrame(rows)
    if frame.empty:
        return html.paragraph("no claim")
    links = {"judged from": {folder: root + run_path(slug) for folder, slug in slugs.items()}}
    return html.table(frame, links=links, row_class="css")


def paper_page(paper: Paper, runs: list[tuple[str, Run, str | None]], slugs: dict[str, str]) -> str:
    parts = [html.paragraph(paper.status(len(runs)))]
    if paper.experiments:
        parts.append(html.heading("Experiments", anchor="experiments"))
        rows = [{"experiment": experiment.name, "the paper's": experiment.figure, "citation": experiment.citation,
                 "configuration": experiment.config, "published": experiment.published.strip("/"),
                 "claims": len(experiment.claims), "note": experiment.note} for experiment in paper.experiments]
        links = {"published": {row["published"]: f"../{run_path(slugs[row['published']])}" for row in rows
                               if row["published"] in slugs}}
        parts.append(html.table(pd.DataFrame(rows), links=links))
    if paper.verdicts is None:
        parts.append(html.paragraph("No claim of this paper is recorded as data yet: its runs are listed below."))
    else:
        parts.append(html.heading("Claims: our numbers beside the paper's", anchor="claims"))
        parts.append(verdicts_table(paper.verdicts, slugs, depth=1))
    parts.append(html.heading("Runs", anchor="runs"))
    parts.append(runs_table(runs, depth=1) if runs else html.paragraph("no published run of this paper"))
    return html.page(f"Paper: {paper.name}", "\n".join(parts), depth=1)


def history_page(benchmark: str, history: pd.DataFrame, points: pd.DataFrame, steps: pd.DataFrame,
                 figures: list[tuple[str, str]],
                 run_slugs: dict[tuple[str, str], str], metric: str, threshold: float, alpha: float,
                 claims: pd.DataFrame) -> str:
    """``run_slugs``: (run_id, commit) -> slug of the run's page, for the runs that have one on this site."""
    parts = [html.paragraph(
        f"Every run of {benchmark} the history holds, per machine, oldest first. A step is a change when the median "
        f"{metric} moved beyond {threshold:.0%} and a one-sided Mann-Whitney U test gives p < {alpha} (cgpm compare's "
        "rule); runs published with medians only are shown, never tested.")]
    shown = points.assign(commit=points["commit"].str[:10],
                          page=[run_slugs.get((row.run_id, row.commit), "") for row in points.itertuples()])
    links = {"run_id": {row.run_id: f"../{run_path(row.page)}" for row in shown.itertuples() if row.page}}
    parts.append(html.table(shown.drop(columns=["page"]), links=links))
    parts += [html.figure(name, caption) for name, caption in figures] or [
        html.paragraph("one run per machine so far: the plot across commits starts with the second")]
    for machine in points["machine"].unique():
        parts.append(html.heading(f"{metric} per cell on {machine}: median [IQR] at each run, oldest first", level=3))
        parts.append(html.table(results_table(history, machine, metric)))
    news = steps[steps["change"].isin(STEP_NEWS)]
    parts.append(html.heading("Step changes", anchor="steps"))
    if news.empty:
        parts.append(html.paragraph(f"no step changed: {len(steps)} cell step(s) tested" if len(steps)
                                    else "one run per machine so far: no step to test"))
    else:
        frame = news.assign(base_commit=news["base_commit"].str[:10], commit=news["commit"].str[:10],
                            flag=news["change"].map(lambda change: "regression" if change != "faster" else ""))
        parts.append(html.table(frame[["machine", "base_commit", "commit", "engine", "query", "window", "change",
                                       "ratio", "p_value", "base_median", "run_median", "flag"]], row_class="flag"))
    if len(claims):
        parts.append(html.heading("Claims judged from these runs", anchor="claims"))
        parts.append(html.paragraph("A claim met at one run and not at the next on the same machine is a regression."))
        frame = claims.assign(base_commit=claims["base_commit"].str[:10], commit=claims["commit"].str[:10],
                              css=claims["change"].where(claims["change"] == "regression", ""))
        parts.append(html.table(frame, row_class="css"))
    return html.page(f"History: {benchmark}", "\n".join(parts), depth=1)


def index_page(runs: list[tuple[str, Run, str | None]], papers: list[tuple[str, str]],
               histories: list[dict]) -> str:
    """``papers``: (paper, one-line status); ``histories``: rows with benchmark, runs, machines, news."""
    parts = [html.paragraph("Every published run, every paper with its claims, and every benchmark's history, "
                            "built by cgpm site from the committed results alone.")]
    parts.append(html.heading("Papers", anchor="papers"))
    parts.append(html.items([f"{html.link(paper_path(paper), paper)}: {html.escape(status)}" for paper, status in papers]))
    parts.append(html.heading("Published runs", anchor="runs"))
    parts.append(runs_table(runs, depth=0))
    parts.append(html.heading("Histories across commits", anchor="histories"))
    frame = pd.DataFrame(histories, columns=["benchmark", "runs", "machines", "latest step"])
    parts.append(html.table(frame, links={"benchmark": {row["benchmark"]: history_path(row["benchmark"])
                                                        for row in histories}}))
    return html.page("cgpm-bench results", "\n".join(parts))
