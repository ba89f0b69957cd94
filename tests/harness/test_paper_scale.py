"""docs/paper-scale.md's table is the committed published folders', every cell of them; a bad scale.toml is refused."""

from __future__ import annotations

import shutil
from pathlib import Path

import pandas as pd
import pytest

from common.errors import ConfigError
from harness import claims
from harness.claims import scale
from harness.cli import main

SCALE_FILE = claims.CLAIMS_DIR / "scale.toml"
PUBLISHED = claims.ROOT / "results" / "published"


def test_the_committed_table_is_generated_from_the_committed_folders():
    block = scale.scale_table(scale.load_runs(SCALE_FILE), PUBLISHED)
    assert block in (claims.ROOT / "docs" / "paper-scale.md").read_text(), (
        "docs/paper-scale.md is stale: run `cgpm reproduce all --check --docs`")


def test_every_cell_of_every_named_folder_has_a_row():
    for run in scale.load_runs(SCALE_FILE):
        cells = claims.published.load_cells(PUBLISHED / run.published)
        distinct = cells.rows.groupby([k for k in scale.CELL_KEYS if k in cells.rows], dropna=False).ngroups
        assert len(scale.cell_rows(run, PUBLISHED)) == distinct == len(cells.rows.drop_duplicates("cell_id"))


def _one_run(tmp_path: Path, rows: list[dict], timeout_s: float = 30.0) -> tuple[scale.ScaleRun, Path]:
    folder = tmp_path / "paper" / "run"
    folder.mkdir(parents=True)
    pd.DataFrame(rows).to_csv(folder / "repetitions.csv", index=False)
    (folder / "run.json").write_text(f'{{"config": {{"timeout_s": {timeout_s}}}}}')
    return scale.ScaleRun("tpjoin", "Table II", "paper/run", "ours", "theirs"), tmp_path


def _row(engine, repetition, status="ok", wall=2.0):
    return {"cell_id": f"{engine}-c", "engine": engine, "dataset": "lubm", "scale": 150, "query": "L1",
            "window": "unbounded", "entailment": "none", "repetition": repetition, "status": status,
            "triples": 1000, "window_triples": 900, "wall_s": wall, "triples_per_s": 1000 / wall,
            "rss_peak_bytes": 100 << 20}


def test_repetitions_give_median_and_quartiles_and_a_time_out_is_a_bound(tmp_path):
    rows = [_row("tpjoin-lazy", index, wall=wall) for index, wall in enumerate([1.0, 2.0, 3.0, 4.0, 5.0])]
    rows.append(_row("oxigraph", 0, status="timeout", wall=float("nan")))
    run, results = _one_run(tmp_path, rows)
    table = {row[0]: row for row in scale.cell_rows(run, results)}
    assert table["tpjoin-lazy"][1] == "lubm(150)"
    assert table["tpjoin-lazy"][7] == "3.00 [2.00–4.00] (n=5)"
    assert table["tpjoin-lazy"][9] == "100 [100–100] (n=5)"
    assert table["oxigraph"][7] == "> 30.0 (timeout)" and table["oxigraph"][8] == "-"


def test_a_missing_folder_is_an_error_not_an_empty_table(tmp_path):
    run = scale.ScaleRun("tpjoin", "Table II", "nowhere/run", "ours", "theirs")
    with pytest.raises(ConfigError, match="nowhere/run has no cells"):
        scale.cell_rows(run, tmp_path)


@pytest.mark.parametrize("text, message", [
    ('[[run]]\npaper = "tpjoin"\nfigure = "x"\npublished = "p"\nours = "o"\n', "missing key 'theirs'"),
    ('[[run]]\npaper = "tpjoin"\nfigure = "x"\npublished = "p"\nours = "o"\ntheirs = "t"\nextra = 1\n', "unknown key 'extra'"),
    ('[[run]]\npaper = "nope"\nfigure = "x"\npublished = "p"\nours = "o"\ntheirs = "t"\n', "paper 'nope'"),
    ('[[run]]\npaper = "tpjoin"\nfigure = ""\npublished = "p"\nours = "o"\ntheirs = "t"\n', "non-empty string"),
    ('title = "x"\n', "only \\[\\[run\\]\\]"),
    ('[[run]\n', "not valid TOML"),
])
def test_a_bad_scale_file_is_refused_with_where(tmp_path, text, message):
    path = tmp_path / "scale.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=message):
        scale.load_runs(path)


def test_docs_all_rewrites_the_table_and_leaves_every_document_when_a_folder_is_missing(tmp_path, monkeypatch, capsys):
    copy = tmp_path / "published"
    shutil.copytree(PUBLISHED, copy)
    assert main(["reproduce", "all", "--check", "--results", str(copy)]) == 0, capsys.readouterr().err
    shutil.rmtree(copy / "sparkwave" / "schema-size")
    written = []
    monkeypatch.setattr(Path, "write_text", lambda self, text: written.append(self))
    assert main(["reproduce", "all", "--check", "--docs", "--results", str(copy)]) == 2
    assert "sparkwave/schema-size has no cells" in capsys.readouterr().err
    assert written == []
