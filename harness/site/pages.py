"""Each page of the site says where its numbers come from: a run's page names its commit and machine, a history page its runs.

Pages are built from fragments of ``harness.site.html`` only (every text escaped). Paths inside
the site: ``index.html``, ``runs/SLUG/index.html``, ``papers/PAPER.html``, ``history/BENCHMARK.html``.
"""

from __future__ import annotations

import json

import pandas as pd

from harness.bench.history import machine_label, results_table
from harness.bench.provenance import load_text
from harness.bench.report import run_facts
from harness.bench.run_status import shown_status
from harness.bench.summary import display_table
from harness.site import html
from harness.site.glance import Step, fastest_per_workload
from harness.site.papers import Paper
from harness.site.runs import Run

STEP_NEWS = ("slower", "failed", "faster")
TABLE_ROWS = 200  # rows of a script's own table shown on its run page
RUN_FILE_CHARACTERS = 20_000  # of a run file shown whole when the folder has no table of its own
STEP_COLUMNS = ["engine", "query", "window", "change", "ratio", "p_value", "base_median", "run_median", "note"]


def run_path(slug: str) -> str:
    return f"runs/{slug}/index.html"


def paper_path(paper: str) -> str:
    return f"papers/{paper}.html"


def history_path(benchmark: str) -> str:
    return f"history/{benchmark}.html"


def _fact(line: str) -> str:
    return html.escape(line.removeprefix("- ").replace("`", ""))


def _script_facts(run: Run) -> list[str]:
    """What a script's own run.json says: its commit, machine, command and settings, as it wrote them."""
    info = run.info
    machine, git = run.machine, info.get("git") or {}
    facts = [f"code: commit {run.commit_text}" + (" (with uncommitted changes)" if git.get("dirty") else ""),
             f"machine: {machine_label(machine) if machine else 'not recorded'}" + (f"; load average at start {load_text(machine)}"
                                                     if machine.get("load_average") else ""),
             f"command: {' '.join(map(str, info.get('command') or [])) or 'not recorded'}"]
    facts += [f"{key} = {value}" for key, value in (info.get("config") or {}).items()]
    return [html.escape(fact) for fact in facts]


def _fastest(summary: pd.DataFrame) -> list[str]:
    table = fastest_per_workload(summary)
    if table.empty:
        return []
    return [html.heading("Fastest per workload", anchor="fastest"),
            html.paragraph("The engine with the best median throughput on each workload, and how many times the next "
                           "engine's; scan, which only receives the stream, is the floor and not ranked. An engine that "
                           "timed out has no median to rank and is named apart."),
            html.table(table)]


def _regressed(step: Step | None) -> list[str]:
    if step is None:
        return []
    parts = [html.heading("What regressed since the run before", anchor="regressed"),
             html.paragraph(f"Against {step.base_run} (commit {step.base_commit[:10]}) on {step.machine}, by cgpm "
                            f"compare's rule on {step.metric}: {len(step.regressed)} of {step.cells} cell(s) regressed ("
                            + ", ".join(f"{n} {change}" for change, n in step.changes.items()) + ").")]
    if len(step.regressed):
        parts.append(html.table(step.regressed[[c for c in STEP_COLUMNS if c in step.regressed]]))
    return parts


def _published_tables(run: Run) -> list[str]:
    tables = run.own_files(".csv")
    if not tables:  # a lone result file: what it holds is all there is to show
        text = json.dumps(run.info, indent=1, ensure_ascii=False)
        return [html.heading("The run file as published", anchor="cells"),
                html.paragraph("Made by a script, not by cgpm bench, with no table beside it: its run file is shown "
                               "as published" + (f", the first {RUN_FILE_CHARACTERS:,} characters" if
                                                 len(text) > RUN_FILE_CHARACTERS else "") + "."),
                html.preformatted(text[:RUN_FILE_CHARACTERS])]
    parts = [html.heading("Published tables", anchor="cells"),
             html.paragraph("Made by a script, not by cgpm bench: its tables are shown as published.")]
    for path in tables:
        frame = pd.read_csv(path)
        parts.append(html.heading(f"{path.name}: {len(frame)} rows" + (f", the first {TABLE_ROWS}" if len(frame)
                                                                      > TABLE_ROWS else ""), level=3))
        parts.append(html.table(frame.head(TABLE_ROWS)))
    return parts


def run_page(run: Run, source: str, figures: list[tuple[str, str]], not_drawn: list[str], paper: str | None,
             step: Step | None = None) -> str:
    """``figures``: (file name in the run's folder of the site, caption); ``not_drawn``: why a figure is missing;
    ``step``: the step into this run from the one before it (``glance.step_into``), None for a first run."""
    facts = [_fact(line) for line in run_facts(run.info)] if run.is_bench_run else _script_facts(run)
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
        summary = run.summary
        parts += _fastest(summary) + _regressed(step)
        parts.append(html.heading("Cells: median [IQR] over the finished repetitions", anchor="cells"))
        parts.append(html.table(display_table(summary)) if len(summary) else html.paragraph(
            f"no cell was stored (the run's status: {shown_status(run.info) or 'not recorded'})"))
    else:
        parts += _published_tables(run)
    documents = run.own_files(".md")
    if documents:
        parts.append(html.heading("The folder's own notes", anchor="notes"))
        for document in documents:
            parts.append(f"<details><summary>{html.escape(document.name)}</summary>"
                         f"{html.preformatted(document.read_text(encoding='utf-8'))}</details>")
    crumbs = [(history_path(run.benchmark), f"history of {run.benchmark}")] if run.is_bench_run else []
    return html.page(f"Run {run.run_id}", "\n".join(parts), depth=2, crumbs=crumbs)


def _cells(run: Run) -> int | str:
    """A bench run's cell count, or why it has none (a script's folder keeps tables, not cells)."""
    if not run.is_bench_run:
        tables = len(run.own_files(".csv"))
        return f"none: a script's folder, {tables} table(s)" if tables else "none: a script's result file"
    return len(run.summary) or f"none stored (status {shown_status(run.info) or 'not recorded'})"


def runs_table(runs: list[tuple[str, Run, str | None]], depth: int) -> str:
    """A row per run: (slug, run, paper)."""
    root = "../" * depth
    rows = [{"run": run.run_id, "benchmark": run.benchmark, "paper": paper or "", "commit": run.commit_text,
             "created": run.info.get("created") or "not recorded", "cells": _cells(run),
             "machine": machine_label(run.machine) if run.machine else "not recorded", "slug": slug}
            for slug, run, paper in runs]
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
                     "evidence": verdict.evidence,
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
        f"{metric} moved beyond {threshold:.0%} and a paired t-test on the log ratios (Welch's where the repetitions cannot be "
        f"paired) gives p < {alpha} after a Benjamini-Hochberg correction over the step's cells (cgpm compare's rule, "
        "harness.bench.significance); runs published with medians only are shown, never tested.")]
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
        accepted = news["accepted"] if "accepted" in news else pd.Series("", index=news.index)
        flags = [("accepted" if trade else "regression") if change != "faster" else ""
                 for change, trade in zip(news["change"], accepted)]
        frame = news.assign(base_commit=news["base_commit"].str[:10], commit=news["commit"].str[:10], flag=flags,
                            accepted=accepted)
        # an accepted step is shown with its trade-off, not as a regression (harness.bench.acceptances)
        parts.append(html.table(frame[["machine", "base_commit", "commit", "engine", "query", "window", "change",
                                       "ratio", "p_value", "base_median", "run_median", "flag"]
                                      + (["accepted"] if accepted.ne("").any() else [])], row_class="flag"))
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
