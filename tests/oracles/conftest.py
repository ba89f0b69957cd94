"""One small local SparkSession for the oracle tests that need one (the Spark oracle), started only when asked for."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def spark():
    from harness.spark import spark_session

    # one shuffle partition: the tests' streams are tiny, and every extra task is pure overhead
    session = spark_session("local[2]", app_name="cgpm-tests", progress=False,
                            config={"spark.sql.shuffle.partitions": "1"})
    yield session
    session.stop()
