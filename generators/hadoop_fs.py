"""A stream's output location is any filesystem Spark can write (local, ``file://``, HDFS, object stores), reached through Hadoop's FileSystem on the driver.

``SparkLocation`` wraps one URI (a plain path is made absolute and becomes ``file://``) with what
the writer needs beyond the DataFrame writer itself: is it there, is it an empty directory, write a
small text file, rename a finished directory into place, remove a failed one. The bytes of the
events never pass through here: tasks write them with Spark's Parquet writer.
"""

from __future__ import annotations

import os
import uuid
from pathlib import Path
from urllib.parse import urlparse

from common.errors import ConfigError, EnvironmentProblem


def as_uri(location: str | os.PathLike) -> str:
    """``location`` as a URI: kept when it has a scheme (``hdfs://nn/x``, ``file:///x``), else an absolute ``file://`` path."""
    text = os.fspath(location)
    if len(urlparse(text).scheme) > 1:  # one letter would be a Windows drive
        return text
    return Path(text).expanduser().resolve().as_uri()


def local_path(location: str | os.PathLike) -> Path | None:
    """The local path a location names (a plain path or a ``file:`` URI), None for any other filesystem."""
    text = os.fspath(location)
    parsed = urlparse(text)
    if len(parsed.scheme) <= 1:
        return Path(text)
    if parsed.scheme == "file" and parsed.netloc in ("", "localhost"):
        return Path(parsed.path)
    return None


class SparkLocation:
    """One URI on the Hadoop filesystem the Spark session's configuration resolves it to."""

    def __init__(self, spark, location: str | os.PathLike) -> None:
        self.uri = as_uri(location).rstrip("/")
        jvm = spark.sparkContext._jvm
        self._jvm = jvm
        self._path = jvm.org.apache.hadoop.fs.Path(self.uri)
        try:
            self._fs = self._path.getFileSystem(spark.sparkContext._jsc.hadoopConfiguration())
        except Exception as error:  # no FileSystem for the scheme, unreachable namenode, missing credentials
            raise EnvironmentProblem(f"Spark cannot reach {self.uri}: {str(error).splitlines()[0]}") from None
        self._fs.setWriteChecksum(False)  # no .crc beside the small files on a local filesystem

    def child(self, name: str) -> str:
        return f"{self.uri}/{name}"

    def check_writable_target(self) -> None:
        """Refuse a location that is a file or a directory holding anything (ConfigError)."""
        if not self._fs.exists(self._path):
            return
        if not self._fs.getFileStatus(self._path).isDirectory():
            raise ConfigError(f"output {self.uri} exists and is not a directory")
        if len(self._fs.listStatus(self._path)) > 0:
            raise ConfigError(f"output directory {self.uri} already holds data; remove it or choose another --out")

    def temporary_sibling(self) -> SparkLocation:
        """A hidden, unused sibling (``.NAME.partial-XXXX``) to build the output in before renaming it into place."""
        parent = self._path.getParent()
        if parent is None:
            raise ConfigError(f"output {self.uri} has no parent directory")
        sibling = SparkLocation.__new__(SparkLocation)
        sibling._jvm, sibling._fs = self._jvm, self._fs
        sibling._path = self._jvm.org.apache.hadoop.fs.Path(parent, f".{self._path.getName()}.partial-{uuid.uuid4().hex[:8]}")
        sibling.uri = sibling._path.toString()
        try:
            self._fs.mkdirs(parent)
        except Exception as error:
            raise EnvironmentProblem(f"cannot create {parent.toString()}: {str(error).splitlines()[0]}") from None
        return sibling

    def write_text(self, name: str, text) -> None:
        """Write ``text`` (a string, or an iterable of string chunks) as the UTF-8 file ``name`` in this directory."""
        stream = self._fs.create(self._jvm.org.apache.hadoop.fs.Path(self._path, name), True)
        try:
            for chunk in [text] if isinstance(text, str) else text:
                stream.write(bytearray(chunk.encode("utf-8")))
        finally:
            stream.close()

    def replace(self, target: SparkLocation) -> None:
        """Rename this directory to ``target`` (an empty directory there is removed first)."""
        if self._fs.exists(target._path):
            self._fs.delete(target._path, False)  # checked empty before the work started
        if not self._fs.rename(self._path, target._path):
            raise EnvironmentProblem(f"could not rename {self.uri} to {target.uri}")

    def copy_to_local(self, destination: Path) -> Path:
        """Copy this directory to the local ``destination`` (which must not exist yet); returns the copy."""
        if not self._fs.exists(self._path):
            raise ConfigError(f"{self.uri} does not exist")
        self._fs.copyToLocalFile(False, self._path, self._jvm.org.apache.hadoop.fs.Path(destination.resolve().as_uri()), True)
        return destination

    def remove(self) -> None:
        try:
            self._fs.delete(self._path, True)
        except Exception:  # cleaning up after a failure must not hide the failure
            pass
