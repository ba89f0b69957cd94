// FILTERs compiled to tests over a join stage's rows, as engines/model/filters.py compiles them (docs/filters.md),
// for the forms ivm takes: && || ! with SPARQL's three-valued logic, = != < > <= >=, + - * / and unary - +,
// BOUND, isIRI/isURI, isBLANK, isLITERAL, isNUMERIC, STR, LANG, DATATYPE, sameTerm, langMatches, constants and
// variables (values.js evaluates them). REGEX and casts are refused when the query is compiled (Unsupported, named).
"use strict";

const {XSD, IRI, BNODE, STRING, NUMERIC, ExprError, Unsupported, termValue, termOf, equal, order, arithmetic, unary, str,
  lang, datatypeOf, simpleString, langMatches, effectiveBoolean} = require("./values");

const COMPARE = {"<": (c) => c < 0, ">": (c) => c > 0, "<=": (c) => c <= 0, ">=": (c) => c >= 0};
const KIND_TESTS = {isiri: (v) => v.kind === IRI, isuri: (v) => v.kind === IRI, isblank: (v) => v.kind === BNODE,
  isliteral: (v) => v.kind >= STRING, isnumeric: (v) => v.kind === NUMERIC};
const ARITY = {bound: 1, isiri: 1, isuri: 1, isblank: 1, isliteral: 1, isnumeric: 1, sameterm: 2, langmatches: 2};
const FUNCTIONS = {str, lang, datatype: datatypeOf};

// A test (row -> boolean, or throws ExprError) for expr over rows laid out as `variables`.
function compileTest(expr, variables) {
  const index = new Map(variables.map((name, i) => [name, i]));
  const value = (e) => {
    if (e.type === "TermExpr") { const constant = termValue(e.term); return () => constant; }
    if (e.type === "VarExpr") {
      const i = index.get(e.name);
      return i === undefined ? () => { throw new ExprError("unbound variable"); } : (row) => termValue(row[i]);
    }
    if (e.type === "Arith") { const left = value(e.left), right = value(e.right); return (row) => arithmetic(e.op, left(row), right(row)); }
    if (e.type === "Unary") { const arg = value(e.arg); return (row) => unary(e.op, arg(row)); }
    if (e.type === "Call" && e.name.startsWith("<")) throw new Unsupported(`the FILTER cast ${e.name} is not supported by ivm`);
    if (e.type === "Call" && e.name in FUNCTIONS) {
      if (e.args.length !== 1) throw new Unsupported(`FILTER function ${e.name} takes 1 argument`);
      const arg = value(e.args[0]), f = FUNCTIONS[e.name];
      return (row) => f(arg(row));
    }
    if (e.type === "Call" && !(e.name in ARITY)) throw new Unsupported(`the FILTER function ${e.name.toUpperCase()} is not supported by ivm`);
    const t = test(e);
    return (row) => termValue(t(row) ? `"true"^^<${XSD}boolean>` : `"false"^^<${XSD}boolean>`);
  };
  const test = (e) => {
    if (e.type === "And" || e.type === "Or") {
      const args = e.args.map(test), decisive = e.type === "Or";
      return (row) => {  // SPARQL's three-valued logic: a decisive operand wins over an error
        let error = null;
        for (const arg of args) {
          try { if (arg(row) === decisive) return decisive; } catch (caught) { if (!(caught instanceof ExprError)) throw caught; error = caught; }
        }
        if (error) throw error;
        return !decisive;
      };
    }
    if (e.type === "Not") { const arg = test(e.arg); return (row) => !arg(row); }
    if (e.type === "Compare") {
      const left = value(e.left), right = value(e.right);
      if (e.op === "=") return (row) => equal(left(row), right(row));
      if (e.op === "!=") return (row) => !equal(left(row), right(row));
      const holds = COMPARE[e.op];
      return (row) => holds(order(left(row), right(row)));
    }
    if (e.type === "Call" && e.name in ARITY) {
      if (e.args.length !== ARITY[e.name]) throw new Unsupported(`FILTER function ${e.name} takes ${ARITY[e.name]} argument(s)`);
      if (e.name === "bound") {
        const i = e.args[0].type === "VarExpr" ? index.get(e.args[0].name) : undefined;
        return (row) => i !== undefined && row[i] !== undefined;
      }
      if (e.name === "sameterm") { const [a, b] = e.args.map(value); return (row) => termOf(a(row)) === termOf(b(row)); }
      if (e.name === "langmatches") {
        const [tag, range] = e.args.map(value);
        return (row) => langMatches(simpleString(tag(row)), simpleString(range(row)));
      }
      const arg = value(e.args[0]), kindTest = KIND_TESTS[e.name];
      return (row) => kindTest(arg(row));
    }
    const v = value(e);
    return (row) => effectiveBoolean(v(row));
  };
  return test(expr);
}

// The conjunct holds on a row: true, or false when it is false or an error.
function compileFilter(expr, variables) {
  const t = compileTest(expr, variables);
  return (row) => {
    try { return t(row) === true; } catch (error) { if (error instanceof ExprError) return false; throw error; }
  };
}

function expressionVariables(expr, into = new Set()) {
  if (expr.type === "VarExpr") into.add(expr.name);
  for (const key of ["args", "arg", "left", "right"]) {
    const part = expr[key];
    if (Array.isArray(part)) part.forEach((p) => expressionVariables(p, into));
    else if (part && typeof part === "object") expressionVariables(part, into);
  }
  return into;
}

// The query's FILTERs as conjuncts (a top-level && splits), so each runs as early as its variables allow.
function conjuncts(filters) {
  return filters.flatMap((f) => (f.type === "And" ? conjuncts(f.args) : [f]));
}

module.exports = {compileFilter, conjuncts, expressionVariables, Unsupported};
