// The basic graph pattern as a differential dataflow (TanStack DB's db-ivm): one input collection holds the
// graph's triples with multiplicities, each triple pattern is a filter and map of it to its bindings, the
// patterns are joined on their shared variables one at a time, and each FILTER conjunct is a filter operator
// placed after the first join that binds all its variables. A collection's change in, the answers' change out:
// `step(changes)` returns the mappings that became answers and those that stopped being answers.
//
// Two things are kept outside the library on purpose, both for exactness: db-ivm identifies a join value that
// is not a string by a 32-bit hash of its structure when it has to tell two apart, so every value carries its
// exact key first (where db-ivm compares by ===); and its `distinct` keys by that hash too, so the set of answers
// is kept here as a count per mapping, an answer being a mapping whose count is positive.
"use strict";

const {D2, MultiSet, filter, map, join, consolidate, output} = require("@tanstack/db-ivm");
const {compileFilter, conjuncts, expressionVariables, Unsupported} = require("./filters");

const isVariable = (term) => term[0] === "?";
// Canonical N-Triples terms never hold a raw newline (terms.py escapes it), so "\n" joins them without ambiguity.
const SEPARATOR = "\n";

// A pattern as a filter over triples and a map to the row of its variables (in first-occurrence order).
function patternOperators(pattern) {
  const variables = [], first = [], checks = [];
  pattern.forEach((term, position) => {
    if (!isVariable(term)) checks.push((t) => t[position] === term);
    else if (variables.includes(term)) { const earlier = first[variables.indexOf(term)]; checks.push((t) => t[position] === t[earlier]); }
    else { variables.push(term); first.push(position); }
  });
  const matches = (t) => checks.every((check) => check(t));
  return {variables, operators: [filter(matches), map((t) => first.map((position) => t[position]))]};
}

// The order patterns are joined in: the most constrained first, then always one sharing the most variables with
// those joined so far (a cross product only when no pattern shares any).
function joinOrder(patterns) {
  const constants = (p) => p.filter((term) => !isVariable(term)).length;
  const left = patterns.map((pattern, index) => ({pattern, index}));
  const order = [], bound = new Set();
  while (left.length) {
    let best = 0, bestScore = null;
    left.forEach(({pattern}, i) => {
      const score = [pattern.filter((term) => isVariable(term) && bound.has(term)).length, constants(pattern)];
      if (bestScore === null || score[0] > bestScore[0] || (score[0] === bestScore[0] && score[1] > bestScore[1])) { best = i; bestScore = score; }
    });
    const [{pattern}] = left.splice(best, 1);
    order.push(pattern);
    pattern.filter(isVariable).forEach((term) => bound.add(term));
  }
  return order;
}

// Rows keyed for a join on `positions`: [key, [the row's own exact key, row]].
function keyedBy(positions) {
  const key = positions.length === 1 ? (row) => row[positions[0]] : (row) => positions.map((i) => row[i]).join(SEPARATOR);
  return map((row) => [key(row), [row.join(SEPARATOR), row]]);
}

class Dataflow {
  constructor(query) {
    if (!query.patterns.length) throw new Unsupported("a query without triple patterns is not supported by ivm");
    this.graph = new D2();
    this.input = this.graph.newInput();
    const pending = conjuncts(query.filters).map((expr) => ({expr, needs: expressionVariables(expr)}));
    const patternVariables = new Set(query.patterns.flat().filter(isVariable));
    const withFilters = (stream, variables, last) => {
      // a variable no pattern binds is unbound in every row, so it never holds a conjunct back
      const ready = pending.filter((f) => last || [...f.needs].every((v) => variables.includes(v) || !patternVariables.has(v)));
      for (const f of ready) {
        pending.splice(pending.indexOf(f), 1);
        stream = stream.pipe(filter(compileFilter(f.expr, variables)));
      }
      return stream;
    };
    const order = joinOrder(query.patterns);
    const firstPattern = patternOperators(order[0]);
    let variables = firstPattern.variables;
    let stream = withFilters(this.input.pipe(...firstPattern.operators), variables, order.length === 1);
    order.slice(1).forEach((pattern, i) => {
      const next = patternOperators(pattern);
      const shared = next.variables.filter((v) => variables.includes(v));
      const fresh = next.variables.map((v, position) => [v, position]).filter(([v]) => !variables.includes(v));
      const right = this.input.pipe(...next.operators, keyedBy(shared.map((v) => next.variables.indexOf(v))));
      const joined = stream.pipe(keyedBy(shared.map((v) => variables.indexOf(v))), join(right),
        map(([, [[, row], [, other]]]) => row.concat(fresh.map(([, position]) => other[position]))));
      variables = variables.concat(fresh.map(([v]) => v));
      stream = withFilters(joined, variables, i === order.length - 2);
    });
    const positions = query.variables.map((v) => variables.indexOf(v));
    this.changes = new Map();  // mapping (its JSON) -> change of its count since the last step
    stream.pipe(map((row) => JSON.stringify(positions.map((i) => row[i]))), consolidate(),
      output((multiset) => {
        for (const [mapping, multiplicity] of multiset.getInner()) this.changes.set(mapping, (this.changes.get(mapping) || 0) + multiplicity);
      }));
    this.graph.finalize();
    this.counts = new Map();  // mapping (its JSON) -> how many matches give it, > 0
  }

  // The answers' change after the input's triples change by `changes` ([[s, p, o], multiplicity], ...).
  step(changes) {
    if (changes.length) {
      this.input.sendData(new MultiSet(changes));
      this.graph.run();
    }
    const added = [], removed = [];
    for (const [mapping, change] of this.changes) {
      const before = this.counts.get(mapping) || 0, after = before + change;
      if (after < 0) throw new Error(`the mapping ${mapping} has a negative count ${after}: a retraction without its insert`);
      after ? this.counts.set(mapping, after) : this.counts.delete(mapping);
      if (before === 0 && after > 0) added.push(mapping);
      else if (before > 0 && after === 0) removed.push(mapping);
    }
    this.changes.clear();
    return {added, removed};
  }

  answers() { return [...this.counts.keys()]; }
}

module.exports = {Dataflow, joinOrder};
