"""A published results folder is small enough to commit and says inside it how it was made: run.json, summaries, repetitions, tables, README.

``publish(RUN, DIR)`` copies a finished run's ``run.json``, its report's summaries, ``repetitions.csv`` (the report's
``cells.csv``: a row per cell repetition, so a claim built on paired per-round ratios can be re-judged from the
folder alone, ``cgpm reproduce --check``), paper tables (``paper-tables.md``, ``summary.tex``, ``tables/``) and PNG
figures into ``DIR`` (the per-event latencies, RSS series and per-repetition parts stay in
the run: hundreds of MB for a large run), with the ``README.md`` of ``provenance``. ``retable(DIR)``
rebuilds the paper tables and the README of a published folder from its own ``run.json`` and
``summary.csv`` alone, for folders published before the tables existed: their cells have the
medians only (no per-repetition data was kept), so the tables say "no spread" in their captions.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pandas as pd

from common.errors import ConfigError
from harness.bench import paper, store
from harness.bench.provenance import readme_text
from harness.bench.report import REPORT_DIR, make_report

COPIED = ("summary.md", "summary.csv", "summary.tex", "README.md")
REPETITIONS = "repetitions.csv"  # the report's cells.csv under the name harness.claims.published reads
PAPER_TABLES = "paper-tables.md"  # the report's tables.md: a published folder may hold a script's tables.md beside it


def publish(run_dir: str | Path, folder: str | Path) -> Path:
    """Write ``folder`` from the run (its report is made first if it has none)."""
    run_dir, folder = Path(run_dir), Path(folder)
    info = store.read_run_info(run_dir)
    report = run_dir / REPORT_DIR
    if not (report / "summary.csv").is_file():
        make_report(run_dir)
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy2(run_dir / store.RUN_FILE, folder / store.RUN_FILE)
    for name in COPIED:
        shutil.copy2(report / name, folder / name)
    shutil.copy2(report / "tables.md", folder / PAPER_TABLES)
    shutil.copy2(report / "cells.csv", folder / REPETITIONS)
    if (folder / "tables").exists():
        shutil.rmtree(folder / "tables")
    shutil.copytree(report / "tables", folder / "tables")
    for png in report.glob("*.png"):
        shutil.copy2(png, folder / png.name)
    (folder / "README.md").write_text(readme_text(info, contents="this folder", run_dir=_run_path(info),
                                                  publish_dir=_shown(folder)))
    return folder


def _shown(folder: Path) -> str:
    """The folder as the README names it: relative to the working directory when inside it."""
    resolved = folder.resolve()
    return str(resolved.relative_to(Path.cwd())) if resolved.is_relative_to(Path.cwd()) else str(folder)


def _run_path(info: dict) -> str | None:
    command = info.get("command") or []
    return command[command.index("--out") + 1] if "--out" in command[:-1] else None


def retable(folder: str | Path) -> list[str]:
    """Rebuild ``tables.md``, ``summary.tex``, ``tables/`` and ``README.md`` of a published folder; returns the files."""
    folder = Path(folder)
    info = store.read_run_info(folder)
    try:
        summary = pd.read_csv(folder / "summary.csv")
    except OSError as error:
        raise ConfigError(f"{folder} has no summary.csv to rebuild its tables from: {error.strerror}") from None
    if "rss_growth_bytes" not in summary and {"rss_peak_bytes", "rss_base_bytes"} <= set(summary):
        summary["rss_growth_bytes"] = summary["rss_peak_bytes"] - summary["rss_base_bytes"]
    config = info.get("config", {})
    made = paper.paper_tables(summary, repetitions=config.get("repetitions"), timeout_s=config.get("timeout_s"),
                              min_time_s=config.get("min_time_s"), engines=list(config.get("engines") or []))
    has_spread = any(column.endswith("_q1") for column in summary.columns)
    if not has_spread:
        for table in made:
            table.caption_extra = (f"median over {config.get('repetitions')} repetitions (no spread: only the medians "
                                   "of this run were kept)")
    run_id = str(info.get("run_id"))
    (folder / "tables").mkdir(exist_ok=True)
    latex, markdown, by_metric = [], [f"# Tables of {run_id}", ""], {}
    for number, table in enumerate(made, start=1):
        text = paper.to_latex(table, label=f"tab:{run_id}:{table.metric}:{number}")
        by_metric.setdefault(table.metric, []).append(text)
        latex.append(text)
        markdown.append(paper.to_markdown(table))
    written = []
    for metric, texts in by_metric.items():
        (folder / "tables" / f"{metric}.tex").write_text("\n".join(texts))
        written.append(f"tables/{metric}.tex")
    (folder / "summary.tex").write_text("% needs \\usepackage{booktabs}\n" + "\n".join(latex))
    (folder / PAPER_TABLES).write_text("\n".join(markdown))
    note = (f"The paper tables (`summary.tex`, `tables/`, `{PAPER_TABLES}`) and this README were rebuilt from "
            f"`summary.csv` and `run.json` by `cgpm report {_shown(folder)} --retable`; `--publish` and `--retable` "
            "exist in the code after the run's commit: run the bench at the commit above, the report with a later one.")
    (folder / "README.md").write_text(readme_text(info, contents="this folder", run_dir=_run_path(info),
                                                  publish_dir=_shown(folder), note=note))
    return [*written, "summary.tex", PAPER_TABLES, "README.md"]
