"""The generation benchmark refuses bad input in one line, publishes a folder whose table is its repetitions' median [IQR], and its partition check sees a changed row.

The pure parts run without Spark; one small run of the command itself (a subprocess: its partition
check starts and stops its own sessions) checks the folder it publishes and the stream it keeps.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pytest

from benchmarks import generation_record
from benchmarks.partition_check import rows_digest, sample_places
from common.errors import ConfigError, GeneratorError
from harness.bench.config import Generate
from harness.bench.datasets import stream_name
from harness.bench.workload_streams import generated_key

ROOT = Path(__file__).resolve().parents[1]


def test_a_stream_is_named_as_the_bench_cache_names_it():
    spec = generation_record.parse_stream("taxi:10000000:seed=7")
    key = generated_key(Generate(dataset="taxi", scales=(10_000_000,), seed=7), 10_000_000, "entity")
    assert generation_record.stream_label(spec) == stream_name(key) == "taxi-scale10000000-seed7-entity"


def test_dataset_options_are_kept_sorted_and_typed():
    spec = generation_record.parse_stream("lsbench:600:stream=all,days=3,events_of=5")
    assert spec.options == (("days", 3), ("stream", "all"))
    assert str(spec.shape) == "triples:5"
    assert generation_record.stream_label(spec) == "lsbench-scale600-seed0-triples5-days3-streamall"


@pytest.mark.parametrize("text, error, words", [
    ("nope:10", GeneratorError, "unknown dataset 'nope'"),
    ("taxi:many", ConfigError, "scale 'many' is not an integer"),
    ("taxi:0", GeneratorError, "bad scale 0"),
    ("taxi:10:seed", ConfigError, "bad setting 'seed'"),
    ("taxi:10:seed=x", ConfigError, "seed must be a number"),
    ("lsbench:10:days=0", GeneratorError, "days must be an integer"),
])
def test_bad_streams_are_refused_in_one_line(text, error, words):
    with pytest.raises(error) as raised:
        generation_record.parse_stream(text)
    assert words in str(raised.value) and "\n" not in str(raised.value)


def test_the_command_refuses_bad_input_with_exit_2_before_spark():
    result = subprocess.run([sys.executable, "-m", "benchmarks.bench_generators", "--stream", "nope:3"], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == ["bench_generators: unknown dataset 'nope'; known: bsbm, lsbench, "
                                                  "lubm, snb, taxi"]


def _rows(stream: str, walls: list[float], triples: int = 1000) -> list[dict]:
    return [{"stream": stream, "dataset": stream.split("-")[0], "scale": 1, "master": "local[1]", "repetition": index,
             "wall_s": wall, "cpu_s": wall / 2, "triples": triples, "events": 10, "static_triples": 5,
             "triples_per_s": round(triples / wall), "triples_per_cpu_s": round(2 * triples / wall),
             "peak_rss_bytes": (index + 1) * 2**20, "rss_before_bytes": 2**19, "parquet_bytes": 2_000_000,
             "directory_bytes": 2_100_000} for index, wall in enumerate(walls)]


def _record(stream: str, identical: bool = True) -> dict:
    check = {"sample_units": 2, "masters": ["local[1]", "local[2]"], "rows": 1234, "identical": identical}
    return {"stream": stream, "command": ["x/bench_generators.py", "--stream", "taxi:1"], "master": "local[1]",
            "git": {"commit": "abc" * 13 + "d"}, "machine": {"cpus_logical": 2}, "cpu_affinity": [0], "nice": 5,
            "partition_check": check}


def test_published_folder_keeps_other_streams_and_replaces_a_stream_measured_again(tmp_path):
    generation_record.publish(tmp_path, {"taxi-a": _record("taxi-a")}, _rows("taxi-a", [1.0, 2.0, 4.0]))
    generation_record.publish(tmp_path, {"snb-b": _record("snb-b", identical=False)}, _rows("snb-b", [3.0]))
    generation_record.publish(tmp_path, {"taxi-a": _record("taxi-a")}, _rows("taxi-a", [1.0, 2.0, 3.0, 4.0, 5.0]))
    info = json.loads((tmp_path / "run.json").read_text())
    assert info["schema_version"] == generation_record.SCHEMA_VERSION and set(info["streams"]) == {"taxi-a", "snb-b"}
    rows = pd.read_csv(tmp_path / "repetitions.csv")
    assert rows.groupby("stream").size().to_dict() == {"taxi-a": 5, "snb-b": 1}
    table = (tmp_path / "table.md").read_text()
    taxi_line = next(line for line in table.splitlines() if line.startswith("| taxi-a"))
    assert "| 3.00 [2.00–4.00] (5) |" in taxi_line  # wall s: median [q1–q3] (n) over 1..5
    assert "identical: local[1] vs local[2], first 2 units, 1,234 rows" in taxi_line
    snb_line = next(line for line in table.splitlines() if line.startswith("| snb-b"))
    assert "| 3.00 (1) |" in snb_line and "DIFFERENT" in snb_line  # one repetition: no range
    readme = (tmp_path / "README.md").read_text()
    assert "taskset -c 0 nice -n 5 python -m benchmarks.bench_generators --stream taxi:1" in readme


def test_a_folder_of_another_schema_is_refused(tmp_path):
    (tmp_path / "run.json").write_text(json.dumps({"schema_version": "cgpm-bench-run/1"}))
    with pytest.raises(ConfigError, match="publish into another folder"):
        generation_record.publish(tmp_path, {"a": _record("a")}, _rows("a", [1.0]))


def test_the_digest_follows_the_rows_not_the_chunks():
    table = pa.table({"event": [0, 0, 1], "s": ["a", "b", "c"]})
    rechunked = pa.concat_tables([table.slice(0, 1), table.slice(1)])
    swapped = pa.table({"event": [0, 0, 1], "s": ["b", "a", "c"]})
    assert rows_digest(table) == rows_digest(rechunked) != rows_digest(swapped)


def test_the_sample_is_the_streams_first_units_at_their_places_in_the_whole_stream():
    from generators.pipeline import twin_places

    spec = generation_record.parse_stream("lsbench:50:days=4")
    assert sample_places(spec, 2) == twin_places(spec)[:2]


@pytest.mark.spark
def test_a_small_run_publishes_its_repetitions_and_keeps_the_last_stream(tmp_path):
    published, kept = tmp_path / "published", tmp_path / "streams"
    result = subprocess.run(
        [sys.executable, "-m", "benchmarks.bench_generators", "--stream", "taxi:40000:seed=7,block=5000", "--repeat", "2",
         "--master", "local[1]", "--check-partitions", "6", "--publish", str(published), "--keep", str(kept),
         "--scratch", str(tmp_path)], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-2000:]
    name = "taxi-scale40000-seed7-entity-block5000"
    rows = pd.read_csv(published / "repetitions.csv")
    assert list(rows["repetition"]) == [0, 1] and set(rows["triples"]) == {960_000}
    assert (rows["peak_rss_bytes"] > rows["rss_before_bytes"]).all() and (rows["parquet_bytes"] > 0).all()
    check = json.loads((published / "run.json").read_text())["streams"][name]["partition_check"]
    assert check["identical"] and check["partitions"] == [2, 4] and check["rows"] == 6 * 5_000 * 24
    manifest = json.loads((kept / name / "stream.json").read_text())
    assert manifest["counts"]["triples"] == 960_000 and manifest["seed"] == 7
    assert sorted(path.name for path in tmp_path.iterdir()) == ["published", "streams"]  # scratch emptied


def test_the_docs_show_the_published_table_as_it_is():
    folder, doc = "results/published/generation/paper-scale", "docs/generators.md"
    page = (ROOT / doc).read_text()
    begin = generation_record.DOCS_BEGIN.format(folder=folder, module=generation_record.MODULE, doc=doc)
    shown = page[page.index(begin):page.index(generation_record.DOCS_END) + len(generation_record.DOCS_END)]
    expected = f"{begin}\n\n{(ROOT / folder / 'table.md').read_text()}\n{generation_record.DOCS_END}"
    assert shown == expected, f"stale: python -m benchmarks.bench_generators --retable {folder} --docs {doc}"


def test_retable_rewrites_only_the_block_and_refuses_a_page_without_one(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    generation_record.publish("out", {"taxi-a": _record("taxi-a")}, _rows("taxi-a", [1.0, 2.0]))
    begin = generation_record.DOCS_BEGIN.format(folder="out", module=generation_record.MODULE, doc="page.md")
    Path("page.md").write_text(f"before\n{begin}\nold\n{generation_record.DOCS_END}\nafter\n")
    generation_record.write_docs("page.md", "out")
    page = Path("page.md").read_text()
    assert page.startswith("before\n") and page.endswith("\nafter\n") and "old" not in page and "| taxi-a |" in page
    Path("bare.md").write_text("nothing here\n")
    with pytest.raises(ConfigError, match="has no block for out"):
        generation_record.write_docs("bare.md", "out")
