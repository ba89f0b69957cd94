"""``spark-streaming``: a continuous BGP run by Spark Structured Streaming itself, exact under the ``spark-microbatch`` profile.

Not our matching code on executors: the stream's events are a file source read one file (one tick) a
micro-batch, each triple pattern a streaming scan, the joins Spark's stream-stream joins with
event-time conditions whose watermarks bound their state to the window, the static graph stream-static
joins, FILTERs column expressions (the project's FILTER model where a string comparison does not say
it), and ISTREAM Spark's own stateful operator; the output is in append mode, each mapping once when
the micro-batch that completes it runs (``engine``, ``plan``, ``timing``, ``dataframes``, ``istream``).

Its operational semantics is a profile, not ``cgpm``: ``spark-microbatch`` (``engines/model/profiles.toml``;
DESIGN.md section 2, Profiles): a ``time:P`` tick (1 s shipped; a profile file with another period is
taken too), windows aligned to 0, ISTREAM, no empty reports. What a streaming join cannot express is
refused by name: event and unbounded windows (a stream-stream join's state would be unbounded, and the
profile is time-based), deletions, RDFS entailment, several named windows, cross products (a
stream-stream join needs an equality key) and patterns without variables.

Only this package of ``engines/`` imports pyspark (``plan``, ``timing``, ``istream`` and ``progress`` do not:
they are tested without Spark); DESIGN.md section 3 says why it is an engine all the same.
"""

from engines.spark_streaming.engine import SparkStreamingEngine

__all__ = ["SparkStreamingEngine"]
