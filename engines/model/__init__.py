"""The continuous-query vocabulary every engine, the oracles and the harness share; it holds no engine.

- ``stream``: events, updates, windows, the FILTER AST, continuous queries, mappings and deltas
  (the types of DESIGN.md section 2).
- ``terms``: RDF terms in their one canonical N-Triples form.
- ``query``: SPARQL text (one BGP with FILTERs, an RSP-QL window clause) to a ``ContinuousQuery``;
  ``sparql_text`` writes one back.
- ``windows``: window specifications (``sliding:10s:1s``) to ``Window``.
- ``filters``, ``values``, ``xsd``, ``casts``, ``xpath_regex``: FILTER evaluation with SPARQL's value
  semantics (``docs/filters.md``).

The oracles may import ``stream`` (the model types) and nothing else of ``engines/``: they evaluate
terms and FILTERs with their own code, so a bug in this package cannot hide itself.
"""
