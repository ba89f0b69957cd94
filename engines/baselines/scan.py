"""The cost floor: reads every term of every update and matches nothing.

Any engine's cost is reported against ``scan``, the price of merely receiving the stream in this
process. It declares ``matches=False`` so verification does not expect answers from it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from engines.model.stream import NO_CHANGE, ContinuousQuery, Delta, Event, Mapping, Triple
from engines.protocol import Capabilities


class ScanEngine:
    name = "scan"
    capabilities = Capabilities(
        windows=frozenset({"sliding", "event", "unbounded"}),
        deletions=True,
        entailment=frozenset({"none", "rdfs"}),
        static=True,
        filters=True,
        matches=False,
    )

    def __init__(
        self, query: ContinuousQuery, *, static: Iterable[Triple] = (), schema: Iterable[Triple] = (), **options
    ) -> None:
        self.triples = 0
        self.term_characters = 0

    def push(self, event: Event) -> Delta:
        characters = 0
        for update in event.updates:
            characters += len(update.s) + len(update.p) + len(update.o)
        self.triples += len(event.updates)
        self.term_characters += characters
        return NO_CHANGE

    def answers(self) -> Counter[Mapping]:
        return Counter()

    def stats(self) -> dict[str, int]:
        return {"triples": self.triples, "term_characters": self.term_characters}
