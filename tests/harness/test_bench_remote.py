"""A bench workload may name its stream by URI: a local copy in the stream cache, fetched once, is what every cell reads."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from common.errors import ConfigError, StreamError
from harness.bench import datasets
from harness.bench.config import DEFAULTS, load_config, with_flags
from harness.bench.matrix import expand

EXAMPLE = Path(__file__).resolve().parents[2] / "harness" / "examples" / "university"
URI = "hdfs://namenode:8020/streams/university"


class FakeLocation:
    """Stands for generators.hadoop_fs.SparkLocation: the URI's files are EXAMPLE's, and each copy is counted."""

    copies: list[str] = []
    source = EXAMPLE

    def __init__(self, spark, location):
        self.uri = location

    def copy_to_local(self, destination: Path) -> Path:
        FakeLocation.copies.append(self.uri)
        shutil.copytree(self.source, destination)
        return destination


@pytest.fixture
def fake_hadoop(monkeypatch):
    import generators.hadoop_fs

    FakeLocation.copies = []
    FakeLocation.source = EXAMPLE
    monkeypatch.setattr(generators.hadoop_fs, "SparkLocation", FakeLocation)
    return FakeLocation


def _config(tmp_path: Path, stream: str):
    path = tmp_path / "bench.toml"
    path.write_text(f'stream_cache = "cache"\nengines = ["scan"]\n[[workloads]]\nstream = "{stream}"\n'
                    f'queries = ["{EXAMPLE}/queries/chain.rq"]\n')
    return load_config(path)


def test_a_remote_stream_is_kept_as_written_and_a_file_uri_becomes_its_path(tmp_path):
    assert _config(tmp_path, URI).workloads[0].stream == URI
    assert _config(tmp_path, EXAMPLE.as_uri()).workloads[0].stream == str(EXAMPLE)


def test_a_missing_local_stream_is_still_refused_before_anything_runs(tmp_path):
    with pytest.raises(ConfigError, match="stream directory .*nowhere does not exist"):
        _config(tmp_path, (tmp_path / "nowhere").as_uri())


def test_a_remote_stream_is_fetched_once_into_the_cache_and_the_cells_read_the_copy(tmp_path, fake_hadoop):
    config = _config(tmp_path, URI)
    generated = datasets.prepare_streams(config, spark=object())
    copy = tmp_path / "cache" / datasets.remote_name(URI)
    assert generated == {(datasets.REMOTE, URI): str(copy)} and (copy / "stream.json").is_file()
    cells = expand(config, ["scan"], generated)
    assert [cell.stream_dir for cell in cells] == [str(copy)]
    datasets.prepare_streams(config, spark=object())  # a second run, or a resumed one, reads the same copy
    assert fake_hadoop.copies == [URI]


def test_two_uris_with_the_same_last_segment_get_two_cache_entries():
    assert datasets.remote_name("s3a://a/streams/x") != datasets.remote_name("s3a://b/streams/x")
    assert datasets.remote_name("s3a://a/streams/x/").startswith("remote-x-")


def test_a_uri_that_is_not_a_stream_leaves_nothing_in_the_cache(tmp_path, fake_hadoop):
    fake_hadoop.source = EXAMPLE / "queries"  # a directory, but no stream.json
    config = _config(tmp_path, URI)
    with pytest.raises(StreamError, match=f"{URI} holds no stream.json"):
        datasets.prepare_streams(config, spark=object())
    assert not any((tmp_path / "cache").iterdir())


def test_the_stream_flag_takes_a_uri_unchanged():
    resolved = with_flags(DEFAULTS, {}, workload={"stream": URI, "queries": [str(EXAMPLE / "queries/chain.rq")]})
    assert resolved.workloads[0].stream == URI
