"""Key-partitioned runs of any engine: the stream split by a partition key, one engine per partition, the deltas merged.

``plan`` chooses the key (a variable every triple pattern binds) and refuses what cannot be split;
``routing`` sends each triple to the partition of every key value it could bind; ``history`` is one
partition's run (its share of every instant, its owned deltas); ``merge`` joins the partitions'
histories into one by instant; ``executors`` runs the partitions in this process or as Spark tasks.
The split and the merge are pure Python: Spark is only where the partitions run (docs/partitioned-runs.md).
"""
