"""A stream named by a URI on a filesystem Spark can read is read like a local one: ``file:`` URIs directly, others copied here first.

The engines and re-evaluating oracles run in this process, so a stream on HDFS or an object store is
copied once (through the Spark session's Hadoop FileSystem, ``generators.hadoop_fs``) into a
temporary directory removed at exit, then read by ``harness.streams.read_stream`` as usual.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

from generators.hadoop_fs import local_path


def local_stream_path(location: str | os.PathLike) -> Path:
    """A local path holding the stream at ``location`` (a path, a ``file:`` URI, or any URI Spark can read)."""
    path = local_path(location)
    if path is not None:
        return path
    from generators.hadoop_fs import SparkLocation
    from harness.spark import spark_session

    scratch = Path(tempfile.mkdtemp(prefix="cgpm-stream-"))
    atexit.register(shutil.rmtree, scratch, True)
    return SparkLocation(spark_session(app_name="cgpm read"), location).copy_to_local(scratch / "stream")
