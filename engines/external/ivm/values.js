// A term's typed value and SPARQL's operators on values, as engines/model/values.py and filters.py keep them
// (docs/filters.md). Numbers keep their exact values (integers as BigInt, decimals as BigInt and scale; decimal
// division to 28 significant digits, rounded half to even, as Python's decimal context there), so equality,
// order and arithmetic after promotion agree with the harness. Two things stop the engine with an error rather
// than answer differently: comparing xsd:dateTime or xsd:date values (their partial order is not implemented),
// and needing the canonical term of a computed decimal or float (STR or sameTerm of arithmetic).
"use strict";

const XSD = "http://www.w3.org/2001/XMLSchema#";
const [IRI, BNODE, STRING, LANG, NUMERIC, BOOLEAN, DATETIME, ILL_TYPED, OTHER, DATE] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
const KNOWN_KINDS = new Set([STRING, LANG, NUMERIC, BOOLEAN, DATETIME, DATE]);
const [INTEGER, DECIMAL, FLOAT, DOUBLE] = [0, 1, 2, 3];
const big = BigInt;
const INTEGER_TYPES = new Map(Object.entries({
  integer: [null, null], nonPositiveInteger: [null, 0n], negativeInteger: [null, -1n],
  long: [-(2n ** 63n), 2n ** 63n - 1n], int: [-(2n ** 31n), 2n ** 31n - 1n], short: [-(2n ** 15n), 2n ** 15n - 1n],
  byte: [-(2n ** 7n), 2n ** 7n - 1n], nonNegativeInteger: [0n, null], unsignedLong: [0n, 2n ** 64n - 1n],
  unsignedInt: [0n, 2n ** 32n - 1n], unsignedShort: [0n, 2n ** 16n - 1n], unsignedByte: [0n, 2n ** 8n - 1n],
  positiveInteger: [1n, null],
}).map(([name, bounds]) => [XSD + name, bounds]));
const INTEGER_RE = /^[+-]?[0-9]+$/;
const DECIMAL_RE = /^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)$/;
const FLOAT_RE = /^(?:[+-]?(?:(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|INF)|NaN)$/;
const BOOLEAN_LEXICAL = new Map([["true", true], ["1", true], ["false", false], ["0", false]]);

class ExprError extends Error {}  // SPARQL's error: the FILTER is false
class Unsupported extends Error {}  // a form ivm does not evaluate: refused, never answered differently

function unescape(lexical) {
  return lexical.includes("\\") ? lexical.replace(/\\(.)/g, (_, c) => ({n: "\n", r: "\r"})[c] || c) : lexical;
}

// A decimal lexical form as [mantissa, scale] (value = mantissa / 10^scale).
function decimalParts(lexical) {
  const [whole, fraction = ""] = lexical.replace(/^\+/, "").split(".");
  const sign = whole.startsWith("-") ? -1n : 1n;
  const digits = whole.replace("-", "") + fraction;
  return [sign * big(digits || "0"), fraction.length];
}

function floatValue(lexical, rank) {
  const text = lexical.replace(/^\+/, "");
  const number = text === "INF" ? Infinity : text === "-INF" ? -Infinity : Number(text);
  return rank === FLOAT ? Math.fround(number) : number;
}

function literalValue(term) {
  const close = term.lastIndexOf('"');
  const lexical = term.slice(1, close), rest = term.slice(close + 1);
  if (rest.startsWith("@")) return {kind: LANG, value: unescape(lexical), lang: rest.slice(1), datatype: RDF_LANGSTRING, term};
  const datatype = rest.startsWith("^^") ? rest.slice(3, -1) : XSD + "string";
  if (datatype === XSD + "string") return {kind: STRING, value: unescape(lexical), datatype, term};
  const typed = (kind, value, rank = -1) => ({kind, value, rank, datatype, term});
  const illTyped = () => typed(ILL_TYPED, null);
  const bounds = INTEGER_TYPES.get(datatype);
  if (bounds) {
    if (!INTEGER_RE.test(lexical)) return illTyped();
    const number = big(lexical);
    if ((bounds[0] !== null && number < bounds[0]) || (bounds[1] !== null && number > bounds[1])) return illTyped();
    return typed(NUMERIC, number, INTEGER);
  }
  if (datatype === XSD + "decimal") return DECIMAL_RE.test(lexical) ? typed(NUMERIC, decimalParts(lexical), DECIMAL) : illTyped();
  for (const [name, rank] of [["double", DOUBLE], ["float", FLOAT]]) {
    if (datatype === XSD + name) return FLOAT_RE.test(lexical) ? typed(NUMERIC, floatValue(lexical, rank), rank) : illTyped();
  }
  if (datatype === XSD + "boolean") return BOOLEAN_LEXICAL.has(lexical) ? typed(BOOLEAN, BOOLEAN_LEXICAL.get(lexical)) : illTyped();
  if (datatype === XSD + "dateTime") return typed(DATETIME, null);  // validity and value are never read (see top)
  if (datatype === XSD + "date") return typed(DATE, null);
  return typed(OTHER, null);
}

const RDF_LANGSTRING = "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString";
const RANK_DATATYPES = ["integer", "decimal", "float", "double"].map((name) => XSD + name);

// Values made by an expression; a computed number's term is made only for integers (the one canonical form
// that needs no XSD 1.1 formatting), and asking for another's stops the engine (see top).
const stringValue = (text) => ({kind: STRING, value: text, datatype: XSD + "string",
  term: `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n").replace(/\r/g, "\\r")}"`});
function numeric(value, rank) {
  const number = {kind: NUMERIC, value, rank, datatype: RANK_DATATYPES[rank], computed: true};
  if (rank === INTEGER) number.term = `"${value}"^^<${RANK_DATATYPES[INTEGER]}>`;
  return number;
}
function termOf(value) {
  if (value.term === undefined) throw new Unsupported("the canonical term of a computed decimal or float (STR or sameTerm of arithmetic) is not supported by ivm");
  return value.term;
}

const VALUES = new Map();
function termValue(term) {
  let value = VALUES.get(term);
  if (value === undefined) {
    if (VALUES.size >= 1 << 17) VALUES.clear();  // a stream's terms come and go, as in values.py
    value = term[0] === "<" ? {kind: IRI, term} : term[0] === "_" ? {kind: BNODE, term} : literalValue(term);
    VALUES.set(term, value);
  }
  return value;
}

const dateTimes = () => new Unsupported("comparing xsd:dateTime or xsd:date values in a FILTER is not supported by ivm");

// -1, 0, 1, or NaN when unordered (a NaN operand): two numerics after SPARQL's type promotion.
function compareNumbers(a, b) {
  const rank = Math.max(a.rank, b.rank);
  if (rank === INTEGER) return a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
  if (rank === DECIMAL) {
    const [m1, s1] = a.rank === INTEGER ? [a.value, 0] : a.value, [m2, s2] = b.rank === INTEGER ? [b.value, 0] : b.value;
    const left = m1 * 10n ** big(Math.max(s2 - s1, 0)), right = m2 * 10n ** big(Math.max(s1 - s2, 0));
    return left < right ? -1 : left > right ? 1 : 0;
  }
  const x = toFloat(a, rank), y = toFloat(b, rank);
  return x < y ? -1 : x > y ? 1 : x === y ? 0 : NaN;
}

function toFloat(value, rank) {
  const number = value.rank === INTEGER ? Number(value.value)
    : value.rank === DECIMAL ? Number(`${value.value[0]}e-${value.value[1]}`) : value.value;
  return rank === FLOAT && value.rank !== FLOAT ? Math.fround(number) : number;
}

function compareStrings(a, b) {  // by code point, as Python compares str
  if (a === b) return 0;
  const x = [...a], y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return x[i].codePointAt(0) < y[i].codePointAt(0) ? -1 : 1;
  }
  return x.length < y.length ? -1 : 1;
}

function order(a, b) {
  if (a.kind === b.kind) {
    if (a.kind === NUMERIC) return compareNumbers(a, b);
    if (a.kind === STRING) return compareStrings(a.value, b.value);
    if (a.kind === BOOLEAN) return Number(a.value) - Number(b.value);
    if (a.kind === DATETIME || a.kind === DATE) throw dateTimes();
  }
  throw new ExprError("operands cannot be ordered");
}

function equal(a, b) {
  if (a.kind === b.kind) {
    if (a.kind === NUMERIC) return compareNumbers(a, b) === 0;
    if (a.kind <= LANG || a.kind === BOOLEAN) return a.kind <= BNODE ? a.term === b.term : a.value === b.value && a.lang === b.lang;
    if ((a.kind === DATETIME || a.kind === DATE) && a.term !== b.term) throw dateTimes();
  }
  if (a.term === b.term) return true;
  if (a.kind === LANG || b.kind === LANG) return false;
  const dated = (v) => v.kind === DATETIME || v.kind === DATE || (v.kind === ILL_TYPED && /#date(Time)?$/.test(v.datatype));
  if (a.kind >= STRING && b.kind >= STRING && (dated(a) || dated(b))) throw dateTimes();  // valid or ill-typed decides
  if (KNOWN_KINDS.has(a.kind) && KNOWN_KINDS.has(b.kind)) return false;
  if (a.kind >= STRING && b.kind >= STRING) throw new ExprError("literals of incompatible or unknown datatypes");
  return false;
}

function promote(value, rank) {
  if (rank === INTEGER) return value.value;
  if (rank === DECIMAL) return value.rank === INTEGER ? [value.value, 0] : value.value;
  return toFloat(value, rank);
}

const abs = (n) => (n < 0n ? -n : n);
// a / b of two decimals to 28 significant digits, rounded half to even; the scale is kept non-negative.
function divideDecimals([m1, s1], [m2, s2]) {
  if (m2 === 0n) throw new ExprError("decimal division by zero");
  if (m1 === 0n) return [0n, 0];
  let a = abs(m1) * 10n ** big(s2), b = abs(m2) * 10n ** big(s1);  // |a / b| is the quotient's magnitude
  let e = a.toString().length - b.toString().length;  // 10^e <= a / b < 10^(e+1), once corrected
  if (e >= 0 ? a < b * 10n ** big(e) : a * 10n ** big(-e) < b) e -= 1;
  const k = 27 - e;  // digits after the point that keep 28 significant ones
  if (k >= 0) a *= 10n ** big(k); else b *= 10n ** big(-k);
  let q = a / b;
  const twice = 2n * (a % b);
  if (twice > b || (twice === b && q % 2n === 1n)) q += 1n;
  const sign = (m1 < 0n) !== (m2 < 0n) ? -1n : 1n;
  return k >= 0 ? [sign * q, k] : [sign * q * 10n ** big(-k), 0];
}

function arithmetic(op, a, b) {
  if (a.kind !== NUMERIC || b.kind !== NUMERIC) throw new ExprError(`${op} needs numeric operands`);
  let rank = Math.max(a.rank, b.rank);
  if (op === "/" && rank === INTEGER) rank = DECIMAL;
  const x = promote(a, rank), y = promote(b, rank);
  if (rank === INTEGER) return numeric(op === "+" ? x + y : op === "-" ? x - y : x * y, INTEGER);
  if (rank === DECIMAL) {
    if (op === "/") return numeric(divideDecimals(x, y), DECIMAL);
    if (op === "*") return numeric([x[0] * y[0], x[1] + y[1]], DECIMAL);
    const scale = Math.max(x[1], y[1]), left = x[0] * 10n ** big(scale - x[1]), right = y[0] * 10n ** big(scale - y[1]);
    return numeric([op === "+" ? left + right : left - right, scale], DECIMAL);
  }
  const result = op === "+" ? x + y : op === "-" ? x - y : op === "*" ? x * y : x / y;  // IEEE, as Python's floats
  return numeric(rank === FLOAT ? Math.fround(result) : result, rank);
}

function unary(op, a) {
  if (a.kind !== NUMERIC) throw new ExprError(`unary ${op} needs a numeric operand`);
  if (op === "+") return numeric(a.value, a.rank);
  return numeric(a.rank === DECIMAL ? [-a.value[0], a.value[1]] : -a.value, a.rank);
}

function str(a) {
  if (a.kind === IRI) return stringValue(a.term.slice(1, -1));
  if (a.kind === STRING || a.kind === LANG) return stringValue(a.value);
  if (a.kind >= STRING) {
    const term = termOf(a);
    return stringValue(unescape(term.slice(1, term.lastIndexOf('"'))));
  }
  throw new ExprError("STR of a blank node");
}

function lang(a) {
  if (a.kind < STRING) throw new ExprError("LANG of a non-literal");
  return stringValue(a.lang || "");
}

function datatypeOf(a) {
  if (a.kind < STRING) throw new ExprError("DATATYPE of a non-literal");
  return termValue(`<${a.datatype}>`);
}

function simpleString(a) {
  if (a.kind !== STRING) throw new ExprError("expected a simple literal or xsd:string");
  return a.value;
}

function langMatches(tag, range) {  // RFC 4647 basic filtering, as filters.py
  if (range === "*") return tag !== "";
  tag = tag.toLowerCase(); range = range.toLowerCase();
  return tag === range || tag.startsWith(range + "-");
}

function effectiveBoolean(value) {
  if (value.kind === BOOLEAN) return value.value;
  if (value.kind === NUMERIC) {
    if (value.rank === INTEGER) return value.value !== 0n;
    if (value.rank === DECIMAL) return value.value[0] !== 0n;
    return value.value === value.value && value.value !== 0;
  }
  if (value.kind === STRING || value.kind === LANG) return value.value.length > 0;
  if (value.kind === ILL_TYPED && (value.datatype === XSD + "boolean" || INTEGER_TYPES.has(value.datatype)
      || /#(decimal|float|double)$/.test(value.datatype))) return false;
  throw new ExprError("no effective boolean value");
}


module.exports = {XSD, IRI, BNODE, STRING, NUMERIC, ExprError, Unsupported, termValue, termOf, equal, order, arithmetic,
  unary, str, lang, datatypeOf, simpleString, langMatches, effectiveBoolean};
