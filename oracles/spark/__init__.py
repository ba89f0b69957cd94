"""The Spark oracle: every instant's M(τ) of a windowed BGP+FILTER query from one Spark SQL job over the stream's intervals.

Where ``oracles.evaluate`` re-evaluates the query at each instant, this oracle states DESIGN.md
section 2 as intervals ("The same answers as intervals"): triples' presences
(``oracles.spark.presence``), matches joined with the window as an interval condition
(``oracles.spark.matching``), mappings' lifetimes and from them Δ⁺/Δ⁻ at every instant
(``oracles.spark.history``). Event, tumbling, sliding and unbounded windows, deletions on unbounded
streams, the static graph, FILTERs with the oracles' own value semantics (``oracles.plain_filters``
inside a pandas function) and RDFS (each triple replaced by its closure) are covered.

It is the one oracle allowed to import pyspark; the caller passes the SparkSession (the oracles do
not import the harness), so it runs wherever that session runs: local or a cluster.
"""

from oracles.spark.history import AnswerHistory, answer_history, oracle_answers

__all__ = ["AnswerHistory", "answer_history", "oracle_answers"]
