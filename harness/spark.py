"""One way to get a SparkSession: Java 17+ checked first, quiet logs, local mode sized for a small machine.

``spark_session()`` returns the active session or starts one: ``local[*]`` by default, a cluster
master URL when given. Before the JVM starts, ``check_java()`` finds the ``java`` Spark will use
(``$JAVA_HOME/bin/java``, else the one on PATH) and raises EnvironmentProblem in one line when it
is missing or older than 17, so the user never sees a Py4J stack trace for a missing JDK.
The JVM's standard
error goes through a filter that drops the JDK's "Using incubator modules" warning (Spark asks
for jdk.incubator.vector; the JDK warns on every start, among the progress bars), and passes
everything else on.
Executors run ``CGPM_EXECUTOR_PYTHON`` when set (``spark.pyspark.python``: an interpreter that exists
on every worker, with the project's dependencies), else this interpreter. The project's own code
travels with the session: ``ship_project`` zips the packages this process imports (``common``,
``engines``, ``generators``, ``harness``, ``oracles``) and adds the zip with ``addPyFile``, so a
cluster's executors run exactly the driver's code without installing anything.
"""

from __future__ import annotations

import atexit
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import uuid
import zipfile
from contextlib import contextmanager
from pathlib import Path

from common.errors import EnvironmentProblem

MIN_JAVA = 17
INSTALL_HINT = "install Java 17+ (apt-get install openjdk-17-jre-headless) or set JAVA_HOME to a JDK 17+"
LOCAL_SHUFFLE_PARTITIONS = 4

_VERSION = re.compile(r'version "(\d+)(?:\.(\d+))?')
# Spark prints a "Setting default log level" notice when the level of the logger that starts it
# differs from the root's; giving that logger (SparkSubmit, under org.apache.spark) the root's level
# keeps the start quiet.
_QUIET_LOG4J = """\
rootLogger.level = error
rootLogger.appenderRef.stderr.ref = console
logger.spark.name = org.apache.spark
logger.spark.level = error
appender.console.type = Console
appender.console.name = console
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %d{HH:mm:ss} %p %c{1}: %m%n
"""


def java_executable() -> str | None:
    """The java binary Spark will launch: JAVA_HOME's when set, else the first on PATH."""
    java_home = os.environ.get("JAVA_HOME")
    if java_home:
        candidate = Path(java_home) / "bin" / "java"
        return str(candidate) if candidate.is_file() else None
    return shutil.which("java")


def java_major_version(java: str) -> int | None:
    """The major version ``java -version`` reports (8 for ``1.8.0_x``), or None if it cannot be read."""
    try:
        result = subprocess.run([java, "-version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    match = _VERSION.search(result.stderr + result.stdout)
    if match is None:
        return None
    major = int(match.group(1))
    if major == 1 and match.group(2):  # "1.8.0_392" is Java 8
        major = int(match.group(2))
    return major


def check_java() -> int:
    """Return the Java major version, or raise EnvironmentProblem saying how to install Java 17+."""
    java = java_executable()
    if java is None:
        where = f"JAVA_HOME={os.environ['JAVA_HOME']} has no bin/java" if os.environ.get("JAVA_HOME") else "no java on PATH"
        raise EnvironmentProblem(f"Spark needs Java {MIN_JAVA}+ but {where}: {INSTALL_HINT}")
    major = java_major_version(java)
    if major is None:
        raise EnvironmentProblem(f"Spark needs Java {MIN_JAVA}+ but '{java} -version' did not report a version: {INSTALL_HINT}")
    if major < MIN_JAVA:
        raise EnvironmentProblem(f"Spark needs Java {MIN_JAVA}+ but {java} is Java {major}: {INSTALL_HINT}")
    return major


def _log4j_file() -> str:
    path = Path(tempfile.gettempdir()) / f"cgpm-spark-log4j2-{os.getuid()}.properties"
    if not path.exists() or path.read_text() != _QUIET_LOG4J:
        path.write_text(_QUIET_LOG4J)
    return str(path)


def spark_session(master: str | None = None, *, app_name: str = "cgpm", progress: bool | None = None,
                  config: dict[str, str] | None = None):
    """The active SparkSession, or a new one on ``master`` (default ``local[*]``) with quiet logs.

    ``progress`` shows Spark's console progress bar; by default only when stderr is a terminal.
    """
    from pyspark.sql import SparkSession

    active = SparkSession.getActiveSession()
    if active is not None:
        return active
    check_java()
    master = master or "local[*]"
    if progress is None:
        progress = sys.stderr.isatty()
    executor_python = os.environ.get("CGPM_EXECUTOR_PYTHON")
    os.environ.setdefault("PYSPARK_PYTHON", executor_python or sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    log4j = f"-Dlog4j.configurationFile=file:{_log4j_file()}"
    builder = (
        SparkSession.builder.master(master)
        .appName(app_name)
        .config("spark.ui.enabled", "false")  # many sessions share this machine: no UI ports
        .config("spark.ui.showConsoleProgress", "true" if progress else "false")
        .config("spark.driver.extraJavaOptions", log4j)
        .config("spark.executor.extraJavaOptions", log4j)
        .config("spark.sql.execution.arrow.pyspark.enabled", "true")
        .config("spark.python.worker.reuse", "true")
    )
    if master.startswith("local"):
        builder = builder.config("spark.sql.shuffle.partitions", str(LOCAL_SHUFFLE_PARTITIONS))
        builder = builder.config("spark.driver.memory", os.environ.get("CGPM_SPARK_DRIVER_MEMORY", "2g"))
    if executor_python:
        builder = builder.config("spark.pyspark.python", executor_python)
    for key, value in (config or {}).items():
        builder = builder.config(key, value)
    try:
        session = _start_filtered(builder)
    except Exception as error:  # the JVM failed to start: report it in one line
        raise EnvironmentProblem(f"could not start Spark on {master}: {str(error).splitlines()[0]}") from None
    session.sparkContext.setLogLevel("ERROR")
    ship_project(session)
    return session


PROJECT_PACKAGES = ("common", "engines", "generators", "harness", "oracles")
# no executor imports these: caches, and the external engines' npm packages and Java classes (tens of MiB)
UNSHIPPED = frozenset({"__pycache__", "node_modules", "build"})


def project_zip(directory: Path) -> Path:
    """A zip of the project's packages as this process imports them (sources and package data, no caches)."""
    import common

    root = Path(common.__file__).resolve().parent.parent
    archive = directory / "cgpm-project.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as out:
        for package in PROJECT_PACKAGES:
            for path in sorted((root / package).rglob("*")):
                if path.is_file() and not UNSHIPPED.intersection(path.parts) and path.suffix not in (".pyc", ".pyo"):
                    out.write(path, path.relative_to(root).as_posix())
    return archive


def ship_project(session) -> None:
    """Add the project's code to the session (``addPyFile``): executors import it ahead of anything installed."""
    directory = Path(tempfile.mkdtemp(prefix="cgpm-ship-"))
    atexit.register(shutil.rmtree, directory, True)
    session.sparkContext.addPyFile(str(project_zip(directory)))


DROPPED_LINES = (b"WARNING: Using incubator modules",)


def _forward(source: int, target: int) -> None:
    """Copy lines from ``source`` to ``target``, leaving out the JVM's start-up noise."""
    with os.fdopen(source, "rb", buffering=0) as pipe:
        pending = b""
        while chunk := pipe.read(65536):
            pending += chunk
            *lines, pending = pending.split(b"\n")
            kept = [line for line in lines if not line.startswith(DROPPED_LINES)]
            if kept:
                try:
                    os.write(target, b"\n".join(kept) + b"\n")
                except OSError:
                    return
        if pending and not pending.startswith(DROPPED_LINES):
            os.write(target, pending)


def _start_filtered(builder):
    """``builder.getOrCreate()`` with the JVM's standard error (fd 2, inherited at its start) piped through ``_forward``."""
    read_end, write_end = os.pipe()
    sys.stderr.flush()
    original = os.dup(2)
    threading.Thread(target=_forward, args=(read_end, original), name="cgpm-jvm-stderr", daemon=True).start()
    os.dup2(write_end, 2)
    try:
        return builder.getOrCreate()
    finally:
        sys.stderr.flush()
        os.dup2(original, 2)  # this process writes to the terminal again; the JVM keeps the pipe
        os.close(write_end)


@contextmanager
def cancellable_jobs(spark):
    """The Spark jobs this thread starts inside carry a tag of their own; the function yielded cancels them, from any
    thread (the blocked call in this one then returns with the cancelled job's error, its Py4J answer read)."""
    context = spark.sparkContext
    tag = f"cgpm-{uuid.uuid4().hex[:12]}"
    context.addJobTag(tag)
    try:
        yield lambda: context.cancelJobsWithTag(tag)
    finally:
        context.removeJobTag(tag)


def default_parallelism(spark) -> int:
    """How many tasks the session runs at once (cores in local mode)."""
    return max(1, spark.sparkContext.defaultParallelism)
