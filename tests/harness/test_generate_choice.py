"""``cgpm generate`` goes to Spark only where it pays: by the expected triples, or for an --out only Spark writes."""

from __future__ import annotations

import pytest

from generators.framing import EventShape, GeneratorSpec
from harness.cli import main
from harness.commands.generate_cmd import SPARK_FROM_TRIPLES, choose_spark, expected_triples


def _spec(dataset: str, scale: int, options=()) -> GeneratorSpec:
    return GeneratorSpec(dataset=dataset, scale=scale, seed=0, index=0, shape=EventShape.parse("entity"), options=options)


def test_a_small_stream_is_made_in_process_and_a_large_one_on_spark():
    assert expected_triples(_spec("lubm", 1)) == 103_074  # LUBM(1), exact: one university is the one unit
    assert choose_spark(_spec("lubm", 1), "out", None)[0] is False
    taxi_per_trip = expected_triples(_spec("taxi", 1000)) // 1000
    just_below = SPARK_FROM_TRIPLES // taxi_per_trip - 1
    assert choose_spark(_spec("taxi", just_below), "out", None)[0] is False
    assert choose_spark(_spec("taxi", just_below + 2), "out", None)[0] is True
    assert choose_spark(_spec("lubm", 1000), "out", None)[0] is True  # ~10^8 triples


@pytest.mark.parametrize(("out", "forced", "spark", "said"), [
    ("hdfs://namenode/streams/x", None, True, "only Spark writes"),
    ("file:///tmp/x", None, False, "pure-Python twin"),
    ("out", True, True, "--spark"),
    ("hdfs://namenode/streams/x", False, False, "--no-spark"),
    ("out", None, True, "--master"),
])
def test_the_out_or_a_flag_decides_and_the_line_says_why(out, forced, spark, said):
    master = "spark://host:7077" if said == "--master" else None
    assert choose_spark(_spec("lubm", 1), out, forced, master) == (spark, choose_spark(_spec("lubm", 1), out, forced, master)[1])
    assert said in choose_spark(_spec("lubm", 1), out, forced, master)[1]


def test_generate_lubm_1_does_not_start_spark_and_says_so(tmp_path, capsys, monkeypatch):
    import harness.spark

    def no_spark(*args, **kwargs):
        raise AssertionError("Spark started for LUBM(1)")

    monkeypatch.setattr(harness.spark, "spark_session", no_spark)
    assert main(["generate", "lubm", "--scale", "1", "--out", str(tmp_path / "s")]) == 0
    err = capsys.readouterr().err
    assert "cgpm generate: in this process, the pure-Python twin: about 103,074 triples expected" in err
    assert (tmp_path / "s" / "stream.json").is_file()
