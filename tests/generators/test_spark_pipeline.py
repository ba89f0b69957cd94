"""The Spark pipeline writes the same rows as the pure-Python twin, whatever the partitioning, atomically."""

from __future__ import annotations

import json
import os
import stat

import pyarrow.dataset as ds
import pytest

from engines.errors import ConfigError, EnvironmentProblem
from generators.framing import EventShape, GeneratorSpec
from generators.pipeline import generate, twin_table
from generators.writer import write_stream_spark
from harness.spark import check_java, java_major_version


def _spark_table(spark, spec):
    return generate(spark, spec).toArrow()


@pytest.mark.spark
@pytest.mark.parametrize("dataset, scale", [("lubm", 3), ("taxi", 3000)])
def test_output_is_identical_for_1_and_4_partitions_and_the_twin(spark, dataset, scale):
    spec = GeneratorSpec(dataset, scale, seed=5, shape=EventShape.parse("triples:10"))
    twin = twin_table(spec)
    one = _spark_table(spark, spec.with_partitions(1))
    four = _spark_table(spark, spec.with_partitions(4))
    assert one.num_rows == twin.num_rows > 0
    assert one.equals(twin.cast(one.schema))
    assert four.equals(one)


@pytest.mark.spark
def test_written_stream_directory_reads_back_in_event_order(spark, tmp_path):
    spec = GeneratorSpec("lubm", 2, partitions=2)
    out = tmp_path / "lubm2"
    info = write_stream_spark(spark, spec, out)
    assert sorted(os.listdir(out)) == ["events", "schema.nt", "stream.json"]
    table = ds.dataset(out / "events", format="parquet").to_table()
    parts = sorted(p for p in os.listdir(out / "events") if p.startswith("part-"))
    ordered = [ds.dataset(out / "events" / p, format="parquet").to_table() for p in parts]
    events = [e for part in ordered for e in part.column("event").to_pylist()]
    assert events == sorted(events)
    assert table.num_rows == info["counts"]["triples"] == twin_table(spec).num_rows
    assert json.loads((out / "stream.json").read_text())["counts"]["events"] == events[-1] + 1
    assert not [name for name in os.listdir(tmp_path) if name.startswith(".")]  # no temporary left behind


@pytest.mark.spark
def test_an_output_directory_with_data_is_refused_before_any_work(spark, tmp_path):
    (tmp_path / "keep.txt").write_text("precious")
    with pytest.raises(ConfigError, match="already holds data"):
        write_stream_spark(spark, GeneratorSpec("lubm", 1), tmp_path)
    assert os.listdir(tmp_path) == ["keep.txt"]


def test_missing_or_old_java_is_one_clear_line(tmp_path, monkeypatch):
    monkeypatch.setenv("JAVA_HOME", str(tmp_path / "nojdk"))
    with pytest.raises(EnvironmentProblem, match="openjdk-17-jre-headless"):
        check_java()
    fake = tmp_path / "jdk8" / "bin" / "java"
    fake.parent.mkdir(parents=True)
    fake.write_text('#!/bin/sh\necho \'java version "1.8.0_392"\' >&2\n')
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    assert java_major_version(str(fake)) == 8
    monkeypatch.setenv("JAVA_HOME", str(tmp_path / "jdk8"))
    with pytest.raises(EnvironmentProblem, match="is Java 8"):
        check_java()
