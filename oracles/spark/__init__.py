"""The Spark oracle: every instant's M(τ) of a windowed BGP+FILTER query from one Spark SQL job over the stream's intervals.

Where ``oracles.evaluate`` re-evaluates the query at each instant, this oracle states DESIGN.md
section 2 as intervals ("The same answers as intervals"): triples' presences
(``oracles.spark.presence``), matches joined with the window as an interval condition
(``oracles.spark.matching``), mappings' lifetimes and from them Δ⁺/Δ⁻ at every instant
(``oracles.spark.history``). Event, tumbling, sliding and unbounded windows, deletions on unbounded
streams, the static graph, FILTERs with the oracles' own value semantics (``oracles.plain_filters``
inside a pandas function) and RDFS (each triple replaced by its closure) are covered.

Two entries share one plan (``history.plan``): ``oracle_answers`` over a ``Stream`` the driver holds,
and ``oracle_answers_from_directory`` over a stream directory that Spark's executors read
(``oracles.spark.directory``; a directory per stream for named windows, merged on the executors by
``oracles.spark.merged_directory``) and whose answers stream back in instant order (``oracles.spark.streamed``),
so the driver holds only the answers, however long the stream.
Event positions and each occurrence's last instant are computed by Spark in both
(``oracles.spark.timeline``).

It is the one oracle allowed to import pyspark; the caller passes the SparkSession (the oracles do
not import the harness), so it runs wherever that session runs: local or a cluster.
"""

from oracles.spark.history import AnswerHistory, answer_history, oracle_answers
from oracles.spark.streamed import oracle_answers_from_directory

__all__ = ["AnswerHistory", "answer_history", "oracle_answers", "oracle_answers_from_directory"]
