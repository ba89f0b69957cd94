"""What ``cgpm reproduce`` prints: verdicts grouped by paper, expected ones marked, a summary per paper, honest digits."""

from __future__ import annotations

from harness.claims import render
from harness.claims.judge import Verdict
from harness.cli import main


def _verdict(paper: str, claim_id: str, verdict: str, expected: str, value: float | None = 2.0,
             relation: str = ">= 0.75", paper_value: float | None = None) -> Verdict:
    return Verdict(paper, "table", claim_id, f"{claim_id} says so", value, None if value is None else (value, value),
                   5, False, paper_value, verdict, expected, f"{paper}/table", relation)


def test_a_value_printed_as_its_threshold_gets_the_digits_that_show_its_side():
    assert render.number(0.747) == "0.75"  # alone: the usual two decimals
    assert render.number(0.747, (0.75,)) == "0.747"
    assert render.number(0.7502, (0.75,)) == "0.7502"
    assert render.number(0.75, (0.75,)) == "0.75"  # on the threshold: nothing to tell apart
    assert render.number(0.70, (0.75,)) == "0.70"
    assert render.number(9.996, (10.0,)) == "9.996" and render.number(1234.4, (1234.0,)) == "1,234.4"
    within = _verdict("p", "c", "missed", "missed", value=1.499, relation="within 2x of the paper", paper_value=3.0)
    assert "1.499 [" in render.text_table([within])  # the interval's lower end is 3 / 2 = 1.5


def test_the_text_groups_by_paper_marks_expected_verdicts_and_sums_up_each_paper():
    verdicts = [_verdict("spectra", "a", "met", "met"), _verdict("spectra", "b", "missed", "missed"),
                _verdict("tpjoin", "c", "not-shown", "not-shown", value=None),
                _verdict("tpjoin", "d", "missed", "met", value=0.747)]
    text = render.text_table(verdicts)
    lines = text.splitlines()
    assert lines.index("== spectra: 2 claim(s) ==") < lines.index("== tpjoin: 2 claim(s) ==")
    assert any(line.startswith("met                  a: 2.00") for line in lines)
    assert any(line.startswith("missed (expected)    b: ") for line in lines)
    assert any(line.startswith("not-shown (expected) c: - >= 0.75") for line in lines)
    assert any(line.startswith("missed (recorded: met) d: 0.747 [0.747–0.747] (n=5) >= 0.75") for line in lines)
    assert lines[-3:] == ["summary, per paper:",
                          "  spectra  2 claims: 1 met, 1 missed; all as recorded",
                          "  tpjoin   2 claims: 0 met, 1 missed, 1 not-shown; 1 changed: d (missed, recorded met)"]


def test_the_committed_results_print_their_misses_as_expected(capsys):
    assert main(["reproduce", "sparkwave", "--check"]) == 0
    out = capsys.readouterr().out
    assert "missed (expected)" in out and "(recorded:" not in out
    assert out.rstrip().splitlines()[-1].startswith("  sparkwave  ") and out.rstrip().endswith("all as recorded")
    assert "undecided (expected)" in out and "evidence: " in out  # the 10^3 reasoning ratios: IQR across 0.75
