"""``cgpm reproduce --check``: the committed results keep their recorded verdicts; falsified ones and bad files do not."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

from harness import claims
from harness.claims import render
from harness.cli import main

PUBLISHED = claims.ROOT / "results" / "published"


@pytest.mark.parametrize("paper", ["spectra", "sparkwave", "tpjoin", "delta"])
def test_every_paper_keeps_its_recorded_verdicts_on_the_committed_results(paper, capsys):
    assert main(["reproduce", paper, "--check"]) == 0, capsys.readouterr().err
    assert claims.judge(paper), "a paper without claims"


def test_the_generated_docs_blocks_are_the_verdicts_of_the_committed_results():
    for paper in claims.papers():
        document = render.docs_path(claims.ROOT, paper).read_text()
        assert render.markdown_table(paper, claims.judge(paper), claims.experiments(paper)) in document, (
            f"docs/{paper}-results.md is stale: run `cgpm reproduce {paper} --check --docs`")


@pytest.fixture
def falsified(tmp_path) -> Path:
    """A copy of the published results to break."""
    copy = tmp_path / "published"
    shutil.copytree(PUBLISHED, copy)
    return copy


def changed_claims(capsys) -> str:
    return capsys.readouterr().err.split("verdicts that differ from the recorded ones:")[-1]


def falsify(path: Path, engine: str, column: str, factor: float) -> None:
    """Multiply one engine's ``column`` by ``factor`` in a published CSV."""
    table = pd.read_csv(path)
    chosen = table.engine == engine
    table.loc[chosen, column] = table.loc[chosen, column] * factor
    table.to_csv(path, index=False)


def test_an_engine_whose_rows_are_removed_leaves_its_claims_not_shown_and_check_fails(falsified, capsys):
    repetitions = falsified / "tpjoin" / "tpjoin-partition" / "repetitions.csv"
    table = pd.read_csv(repetitions)
    table[table.engine != "oxigraph"].to_csv(repetitions, index=False)
    assert main(["reproduce", "tpjoin", "--check", "--results", str(falsified)]) == 1
    named = changed_claims(capsys)
    assert "partition.store-P02 (not-shown, recorded met)" in named and "partition.store-snb" in named
    assert "partition.partition-P02" not in named  # claims without oxigraph still hold


def test_a_throughput_divided_by_ten_breaks_the_claims_built_on_it(falsified, capsys):
    falsify(falsified / "spectra-table1" / "spectra-table1" / "repetitions.csv", "spectra", "steady_triples_per_s", 0.1)
    assert main(["reproduce", "spectra", "--check", "--results", str(falsified)]) == 1
    named = changed_claims(capsys)
    assert "table1.rev-L1-sliding:100000:1 (missed, recorded met)" in named
    assert "table1.scan-L5-sliding:100:1 (missed, recorded met)" in named


def test_a_falsified_repetitions_file_breaks_its_paired_claims(falsified, capsys):
    falsify(falsified / "delta" / "lubm-updates" / "repetitions.csv", "oxigraph", "us_per_update", 0.1)
    assert main(["reproduce", "delta", "--check", "--results", str(falsified)]) == 1
    assert "lubm-updates.oxigraph-simple-star-0.0 (missed, recorded met)" in changed_claims(capsys)


def test_json_lists_each_claim_with_its_value_spread_and_verdict(capsys):
    assert main(["reproduce", "delta", "--check", "--json"]) == 0
    verdicts = json.loads(capsys.readouterr().out)
    first = next(v for v in verdicts if v["id"] == "lubm-updates.flat-ground-0.0")
    assert {"id", "value", "spread", "n", "bound", "paper_value", "verdict", "expected", "text"} <= set(first)
    assert first["verdict"] == "met" and len(first["spread"]) == 2 and first["n"] == 5


CLAIM = """paper = "spectra"
citation = "c"
figure = "f"
config = "benchmarks/configs/spectra-table1.toml"
published = "spectra-table1/spectra-table1"
[[claim]]
id = "x"
text = "t"
kind = "ratio"
metric = "steady_triples_per_s"
numerator = "spectra"
denominator = "scan"
relation = ">= 3"
"""


@pytest.mark.parametrize(("change", "message"), [
    (("", "colour = 1\n"), "unknown key 'colour'"),
    (('relation = ">= 3"', 'relation = "about 3"'), "relation 'about 3' is not"),
    (('kind = "ratio"', 'kind = "speed"'), "kind 'speed' is not one of"),
    (('relation = ">= 3"', 'relation = ">= 3"\nexpected = "fine"'), "expected verdict 'fine'"),
    (('denominator = "scan"\n', ""), "a ratio claim needs 'denominator'"),
    (('paper = "spectra"', 'paper = "nature"'), "paper 'nature' is not one of"),
])
def test_a_bad_claim_file_is_one_line_naming_the_file_and_key_and_exit_2(tmp_path, capsys, change, message):
    old, new = change
    path = tmp_path / "bad.toml"
    path.write_text(new + CLAIM if not old else CLAIM.replace(old, new))
    assert main(["reproduce", str(path), "--check"]) == 2
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1 and str(path) in error and message in error


def test_an_unknown_paper_or_results_folder_is_exit_2(capsys, tmp_path):
    assert main(["reproduce", "nature", "--check"]) == 2
    assert "unknown paper 'nature'" in capsys.readouterr().err
    assert main(["reproduce", "delta", "--check", "--results", str(tmp_path / "none")]) == 2


def test_a_claim_whose_keys_match_several_cells_is_a_bad_claim_file(tmp_path, capsys):
    path = tmp_path / "vague.toml"
    path.write_text(CLAIM)  # no cell keys: every spectra row of the run
    assert main(["reproduce", str(path), "--check"]) == 2
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1 and "vague.x" in error and "name more keys" in error
