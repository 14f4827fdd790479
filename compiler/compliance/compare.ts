// Comparing a result set with a case's expectation, as the compliance README describes: values
// become JSON-shaped (sets → sorted arrays, non-string keys → their JSON text) but keep exact
// numbers; rows are sorted; with `sort_bindings`, array values of the bindings are compared as sets.
import { compare, equal } from "../../runtime/value/compare.js";
import { toJSONText } from "../../runtime/value/json.js";
import { BigNum } from "../../runtime/value/number.js";
import { RegoObject } from "../../runtime/value/object.js";
import { RegoSet } from "../../runtime/value/set.js";
import { newPlainObject, setOwn, type PlainObject, type Value } from "../../runtime/value/value.js";

/** JSON shape with exact numbers: what OPA's result would look like once marshalled. */
export function normalize(v: Value): Value {
  if (v === null || typeof v !== "object" || v instanceof BigNum) return v;
  if (Array.isArray(v)) return v.map(normalize);
  if (v instanceof RegoSet) return v.sorted().map(normalize);
  const out = newPlainObject();
  if (v instanceof RegoObject) {
    for (const [k, val] of v.sorted()) setOwn(out, typeof k === "string" ? k : toJSONText(k), normalize(val));
  } else {
    for (const k of Object.keys(v)) setOwn(out, k, normalize((v as PlainObject)[k]!));
  }
  return out;
}

function sortedRows(rows: readonly Value[], sortBindings: boolean): Value[] {
  const out = rows.map((row) => {
    const n = normalize(row);
    if (!sortBindings || n === null || typeof n !== "object" || Array.isArray(n)) return n;
    const o = newPlainObject();
    for (const k of Object.keys(n)) {
      const b = (n as PlainObject)[k]!;
      setOwn(o, k, Array.isArray(b) ? b.slice().sort(compare) : b);
    }
    return o;
  });
  return out.sort(compare);
}

/** True when the result set matches the expected rows; `diff` explains a mismatch. */
export function compareResults(
  got: readonly Value[],
  want: readonly Value[],
  sortBindings: boolean,
): { ok: true } | { ok: false; diff: string } {
  const g = sortedRows(got, sortBindings);
  const w = sortedRows(want, sortBindings);
  if (g.length === w.length && g.every((row, i) => equal(row, w[i]!))) return { ok: true };
  return { ok: false, diff: `got ${clip(toJSONText(g))}, want ${clip(toJSONText(w))}` };
}

function clip(s: string, n = 300): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}
