"""Every paper value carries its source: recomputed from its derivation, found in its quote; planted misquotes are refused."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from common.errors import ConfigError
from harness import claims
from harness.claims import render
from harness.claims.judge import Verdict
from harness.claims.model import load_experiment
from harness.claims.paper_numbers import evaluate, stands_in

TABLE2 = claims.CLAIMS_DIR / "tpjoin" / "table2.toml"
ALL_FILES = [path for paper in claims.papers() for path in claims.claim_files(paper)]


def every_experiment():
    return [load_experiment(path) for path in ALL_FILES]


def test_every_paper_value_names_its_source_and_equals_its_derivation_rounded():
    sourced = 0
    for experiment in every_experiment():
        for claim in experiment.claims:
            if claim.paper_value is None:
                continue
            number = claim.paper_number
            assert number is not None, f"{claim.claim_id}: a paper value without its source"
            recomputed = evaluate(number.derivation, number.name)[0] if number.derivation else None
            assert recomputed is None or recomputed == pytest.approx(number.value)
            # every typed paper value is a whole number: the paper's number rounded to units
            assert abs(claim.paper_value - number.value) <= 0.5, (claim.claim_id, claim.paper_value, number.value)
            sourced += 1
    assert sourced >= 28  # TP-Join's Table II, events of 100 and 1000, in three claim files


def test_every_printed_number_stands_in_its_quote_under_its_row_and_column():
    checked = 0
    for path in ALL_FILES:
        for name, entry in tomllib.loads(path.read_text()).get("paper_numbers", {}).items():
            fields = entry["quote"].split()
            assert entry["printed"] in " ".join(fields), f"{path}: {name}"
            if "column" in entry:
                cells = fields[1:] if "row" in entry else fields
                assert cells[entry["columns"].index(entry["column"])] == entry["printed"], f"{path}: {name}"
            if "row" in entry:
                assert fields[0] == entry["row"], f"{path}: {name}"
            if entry.get("derivation"):
                numbers = [float(text.replace("_", "")) for text in re.findall(r"[0-9][0-9_.]*", entry["derivation"])]
                assert float(entry["printed"].replace(",", "")) in numbers, f"{path}: {name} ignores its printed value"
            checked += 1
    assert checked >= 30


def test_one_paper_has_one_citation_in_all_its_claim_files():
    for paper in claims.papers():
        citations = {experiment.citation for experiment in claims.experiments(paper)}
        assert len(citations) == 1, (paper, citations)


def planted(tmp_path: Path, old: str, new: str, source: Path = TABLE2) -> Path:
    text = source.read_text()
    assert old in text, old
    path = tmp_path / source.name
    path.write_text(text.replace(old, new, 1))
    return path


def refused(path: Path) -> str:
    with pytest.raises(ConfigError) as caught:
        load_experiment(path)
    message = str(caught.value)
    assert str(path) in message and "\n" not in message
    return message


@pytest.mark.parametrize("typed", ["1061950", "1016195"])
def test_a_paper_value_with_one_digit_added_is_caught(tmp_path, typed):
    message = refused(planted(tmp_path, "L1 = 106195,", f"L1 = {typed},"))
    assert "paper_values" in message and "table2_100_L1" in message and "24_000_000 / 226" in message


def test_the_next_rows_value_is_caught(tmp_path):
    # events of 100 triples given the value of the row below, events of 1000 (24M / 206 s)
    message = refused(planted(tmp_path, "L1 = 106195,", "L1 = 116505,"))
    assert "table2_100_L1" in message


def test_a_printed_number_with_a_digit_added_or_from_another_column_is_caught(tmp_path):
    assert "does not stand in its quote" in refused(planted(tmp_path, 'printed = "226"', 'printed = "2226"'))
    message = refused(planted(tmp_path, 'printed = "226"', 'printed = "97"'))
    assert "under 'Q1'" in message


def test_a_derivation_must_use_its_printed_number_and_only_sourced_numbers(tmp_path):
    message = refused(planted(tmp_path, 'derivation = "24_000_000 / 226"', 'derivation = "24_000_000 / 206"'))
    assert "does not use the printed '226'" in message
    message = refused(planted(tmp_path, 'derivation = "24_000_000 / 226"', 'derivation = "25_000_000 / 226"'))
    assert "uses 2.5e+07" in message


@pytest.mark.parametrize("derivation", ["__import__('os').getcwd()", "lubm_triples / 226", "(226).real",
                                        "[226][0]", "226 if 1 else 2", "226 / 0", "226 /"])
def test_a_derivation_is_arithmetic_on_numbers_only(tmp_path, derivation):
    refused(planted(tmp_path, 'derivation = "24_000_000 / 226"', f'derivation = "{derivation}"'))


def test_a_paper_value_without_its_source_or_with_an_unknown_one_is_refused(tmp_path):
    assert "needs 'paper_number'" in refused(planted(tmp_path, 'paper_number = "table2_100_{query}"\n', ""))
    assert "no [paper_numbers] entry" in refused(planted(tmp_path, '"table2_100_{query}"', '"table3_100_{query}"'))
    assert "unknown key 'page'" in refused(planted(tmp_path, 'source = "Table II"', 'source = "Table II"\npage = "9"'))


def test_the_generated_block_names_each_paper_values_source_and_prints_the_files_notes():
    experiment = load_experiment(TABLE2)
    claim = experiment.claims[0]
    verdict = Verdict("tpjoin", experiment.name, claim.claim_id, claim.text, 2e6, None, 5, False, claim.paper_value,
                      "met", "met", experiment.published)
    block = render.markdown_table("tpjoin", [verdict], [experiment])
    assert "| 106,195 (Table II, row 100, Q1: 24_000_000 / 226) |" in block
    assert f"- `table2` (Table II): {experiment.note}" in block and "103k-triple" in experiment.note
    assert stands_in("24 million", experiment.paper_numbers[0].quote)
