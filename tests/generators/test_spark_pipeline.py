"""The Spark pipeline writes the same rows as the pure-Python twin, whatever the partitioning, atomically."""

from __future__ import annotations

import os
import stat

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from common.errors import ConfigError, EnvironmentProblem
from generators.framing import EventShape, GeneratorSpec
from generators.pipeline import generate, spark_places, twin_table
from generators.writer import write_stream_spark
from harness.spark import check_java, java_major_version


def _read_events(directory) -> pa.Table:
    parts = sorted(p for p in os.listdir(directory / "events") if p.startswith("part-"))
    return pa.concat_tables(pq.read_table(directory / "events" / part) for part in parts)


@pytest.mark.spark
@pytest.mark.parametrize("spec", [
    GeneratorSpec("lubm", 4, seed=5),
    GeneratorSpec("taxi", 2000, seed=5, shape=EventShape.parse("triples:10"), options=(("block", 500),)),
    GeneratorSpec("bsbm", 20, seed=5, options=(("block", 100),)),
    GeneratorSpec("lsbench", 40, seed=5, shape=EventShape.parse("triples:9"), options=(("days", 4),)),
    GeneratorSpec("snb", 30, seed=5, options=(("years", 1),)),
], ids=["lubm", "taxi", "bsbm", "lsbench", "snb"])
def test_written_streams_are_identical_for_1_and_4_partitions_and_the_twin(spark, tmp_path, spec):
    tables = {}
    for partitions in (1, 4):
        out = tmp_path / f"p{partitions}"
        info = write_stream_spark(spark, spec.with_partitions(partitions), out)
        tables[partitions] = _read_events(out)
        assert info["counts"]["triples"] == tables[partitions].num_rows
        assert len([p for p in os.listdir(out / "events") if p.startswith("part-")]) == partitions
    twin = twin_table(spec)
    assert tables[1].equals(twin) and tables[4].equals(twin)
    events = twin.column("event").to_pylist()
    assert events == sorted(events)
    assert not [name for name in os.listdir(tmp_path) if name.startswith(".")]  # no temporary left behind


@pytest.mark.spark
def test_counting_on_spark_gives_the_driver_counts(spark):
    spec = GeneratorSpec("lubm", 3, seed=2)
    assert spark_places(spark, spec, 3, count_on="spark") == spark_places(spark, spec, 3, count_on="driver")


@pytest.mark.spark
def test_the_dataframe_api_gives_the_twin_rows(spark):
    spec = GeneratorSpec("taxi", 300, seed=1, options=(("block", 100),), partitions=3)
    frame = generate(spark, spec)
    assert frame.schema.simpleString() == "struct<event:bigint,ts:bigint,op:tinyint,s:string,p:string,o:string>"
    assert frame.toArrow().equals(twin_table(spec))


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
