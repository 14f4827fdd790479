// Laws of the value model, over random Rego values (sets, objects with non-string keys, BigNums,
// integer doubles beyond 2^53, unicode strings, prototype-named keys):
//   compare is a total order that agrees with equal; equal is reflexive and symmetric and holds
//   across representations of one value; sets never hold two equal elements; JSON text
//   round-trips exactly.
import { expect } from "chai";
import fc from "fast-check";
import { BigNum, RegoObject, RegoSet, toJSONText, type Value } from "regoc";
import { compare, equal } from "../../runtime/value/compare.js";
import { fromJSONText } from "../../runtime/value/json.js";
import { newPlainObject, setOwn, type PlainObject } from "../../runtime/value/value.js";
import { numberFromText } from "../../runtime/value/number.js";

const RUNS = { numRuns: Number(process.env.PROPERTY_RUNS ?? 300) };

const sign = (x: number) => (x < 0 ? -1 : x > 0 ? 1 : 0);

// --- arbitraries ---------------------------------------------------------------------------------

const bigNum: fc.Arbitrary<Value> = fc
  .tuple(fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }), fc.integer({ min: -30, max: 30 }))
  .map(([m, e]) => numberFromText(`${m}e${e}`)!);

const number: fc.Arbitrary<Value> = fc.oneof(
  fc.integer({ min: -1000, max: 1000 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => (Object.is(d, -0) ? 0 : d)),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map((i) => Number(i)), // integer doubles beyond 2^53
  bigNum,
);

// Strings of UTF-16 code units, lone surrogates included.
const units: fc.Arbitrary<string> = fc
  .array(fc.oneof(fc.integer({ min: 0, max: 0xffff }), fc.integer({ min: 0xd7f0, max: 0xe010 })), { maxLength: 5 })
  .map((cs) => String.fromCharCode(...cs));

const key: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 6 }),
  units,
  fc.string({ unit: "binary", maxLength: 4 }),
  fc.constantFrom("__proto__", "constructor", "toString", "hasOwnProperty", "", "a", "b"),
);

function plainObject(entries: Array<[string, Value]>): Value {
  const o = newPlainObject();
  for (const [k, v] of entries) setOwn(o, k, v);
  return o;
}

/** Random values; `leaf` chooses the scalars (a wide domain, or a narrow one where ties happen). */
function values(leaf: fc.Arbitrary<Value>, depth: number) {
  return fc.letrec<{ value: Value; collection: Value }>((tie) => ({
    value: fc.oneof({ depthSize: "small", maxDepth: depth }, leaf, tie("collection")),
    collection: fc.oneof(
      fc.array(tie("value"), { maxLength: 4 }),
      fc.array(fc.tuple(key, tie("value")), { maxLength: 4 }).map(plainObject),
      fc.array(tie("value"), { maxLength: 4 }).map((xs) => new RegoSet(xs) as Value),
      fc.array(fc.tuple(tie("value"), tie("value")), { maxLength: 3 }).map((es) => new RegoObject(es) as Value),
    ),
  })).value;
}

const wideLeaf: fc.Arbitrary<Value> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  number,
  fc.string({ unit: "grapheme", maxLength: 8 }),
  fc.string({ unit: "binary", maxLength: 6 }),
  units,
);

// Few distinct scalars, several spellings of the same number: equal values and ties are common.
const narrowLeaf: fc.Arbitrary<Value> = fc.constantFrom<Value>(
  null,
  false,
  true,
  0,
  1,
  -1,
  1.5,
  2 ** 60,
  numberFromText("1152921504606846976")!, // 2^60 as text
  numberFromText("1152921504606846977")!,
  numberFromText("0.1000000000000000000001")!,
  "",
  "a",
  "b",
  "\u{1F600}",
  "\uffff",
);

const wide = values(wideLeaf, 3);
const narrow = values(narrowLeaf, 3);

/** The same value in another representation: other insertion orders, integers as BigNum or double. */
function respell(v: Value): Value {
  if (typeof v === "number") {
    if (Number.isInteger(v) && !Number.isSafeInteger(v)) return numberFromText(BigInt(v).toString())!;
    return v;
  }
  if (v instanceof BigNum) {
    const d = v.toNumber();
    return v.isInteger() && Number.isInteger(d) && BigInt(d) === v.toBigInt() ? d : v;
  }
  if (Array.isArray(v)) return v.map(respell);
  if (v instanceof RegoSet) return new RegoSet([...v.unordered()].reverse().map(respell));
  if (v instanceof RegoObject) return new RegoObject([...v.unordered()].reverse().map(([k, x]) => [respell(k), respell(x)] as const));
  if (v !== null && typeof v === "object") {
    // A string-keyed object may also be held as a RegoObject; it is the same value.
    const o = v as PlainObject;
    const entries = Object.keys(o).reverse().map((k) => [k, respell(o[k]!)] as [string, Value]);
    return entries.length % 2 === 0 ? plainObject(entries) : new RegoObject(entries);
  }
  return v;
}

// --- laws ------------------------------------------------------------------------------------------

describe("property: value model", () => {
  for (const [name, arb] of [
    ["wide", wide],
    ["narrow", narrow],
  ] as const) {
    describe(`${name} values`, () => {
      it("compare is antisymmetric", () => {
        fc.assert(
          fc.property(arb, arb, (a, b) => sign(compare(a, b)) === -sign(compare(b, a))),
          RUNS,
        );
      });

      it("compare is transitive", () => {
        fc.assert(
          fc.property(arb, arb, arb, (a, b, c) => {
            for (const [x, y, z] of [
              [a, b, c],
              [a, c, b],
              [b, a, c],
              [b, c, a],
              [c, a, b],
              [c, b, a],
            ] as const) {
              if (compare(x, y) <= 0 && compare(y, z) <= 0 && compare(x, z) > 0) return false;
            }
            return true;
          }),
          RUNS,
        );
      });

      it("compare is zero exactly when equal holds", () => {
        fc.assert(
          fc.property(arb, arb, (a, b) => (compare(a, b) === 0) === equal(a, b)),
          RUNS,
        );
      });

      it("equal is reflexive, also across representations", () => {
        fc.assert(
          fc.property(arb, (a) => {
            const b = respell(a);
            return equal(a, a) && equal(a, b) && equal(b, a) && compare(a, b) === 0;
          }),
          RUNS,
        );
      });

      it("equal is symmetric", () => {
        fc.assert(
          fc.property(arb, arb, (a, b) => equal(a, b) === equal(b, a)),
          RUNS,
        );
      });

      it("a set never holds two equal elements", () => {
        fc.assert(
          fc.property(fc.array(arb, { maxLength: 8 }), (xs) => {
            const set = new RegoSet([...xs, ...xs.map(respell)]);
            const elems = set.sorted();
            for (let i = 0; i < elems.length; i++) {
              for (let j = i + 1; j < elems.length; j++) if (equal(elems[i], elems[j])) return false;
            }
            // Every input is a member, and the size is the number of distinct inputs.
            const distinct: Value[] = [];
            for (const x of xs) if (!distinct.some((d) => equal(d, x))) distinct.push(x);
            return xs.every((x) => set.has(x) && set.has(respell(x))) && set.size === distinct.length;
          }),
          RUNS,
        );
      });

      it("sorted() is in compare order", () => {
        fc.assert(
          fc.property(fc.array(arb, { maxLength: 8 }), (xs) => {
            const elems = new RegoSet(xs).sorted();
            for (let i = 1; i < elems.length; i++) if (compare(elems[i - 1]!, elems[i]!) >= 0) return false;
            return true;
          }),
          RUNS,
        );
      });
    });
  }

  // JSON values: no sets, string keys only; numbers of every kind.
  const json = fc.letrec<{ value: Value }>((tie) => ({
    value: fc.oneof(
      { depthSize: "small", maxDepth: 3 },
      fc.constant(null),
      fc.boolean(),
      number,
      fc.string({ unit: "grapheme", maxLength: 8 }),
      fc.string({ unit: "binary", maxLength: 6 }),
      fc.array(tie("value"), { maxLength: 4 }),
      fc.array(fc.tuple(key, tie("value")), { maxLength: 4 }).map(plainObject),
    ),
  })).value;

  it("toJSONText and fromJSONText round-trip JSON values exactly", () => {
    fc.assert(
      fc.property(json, (v) => {
        const text = toJSONText(v);
        const back = fromJSONText(text);
        return equal(back, v) && toJSONText(back) === text;
      }),
      RUNS,
    );
  });

  it("an integer's JSON text keeps its exact value", () => {
    // Plain digits, or digits and a decimal exponent for integers with many trailing zeros.
    const valueOf = (text: string): bigint => {
      const [m, e = "0"] = text.split("e");
      return BigInt(m!) * 10n ** BigInt(e);
    };
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 60n), max: 10n ** 60n }), fc.integer({ min: 0, max: 40 }), (i, zeros) => {
        const n = i * 10n ** BigInt(zeros);
        const text = toJSONText(numberFromText(n.toString())!);
        return /^-?\d+(e\d+)?$/.test(text) && valueOf(text) === n;
      }),
      RUNS,
    );
  });

  it("runs (sanity): the arbitraries produce sets, non-string keys and BigNums", () => {
    const seen = { set: false, regoObject: false, bigNum: false };
    const visit = (v: Value): void => {
      if (v instanceof RegoSet) {
        seen.set = true;
        for (const x of v.unordered()) visit(x);
      } else if (v instanceof RegoObject) {
        seen.regoObject = true;
        for (const [k, x] of v.unordered()) (visit(k), visit(x));
      } else if (v instanceof BigNum) seen.bigNum = true;
      else if (Array.isArray(v)) v.forEach(visit);
    };
    for (const v of fc.sample(wide, { numRuns: 300, seed: 1 })) visit(v);
    expect(seen).to.deep.equal({ set: true, regoObject: true, bigNum: true });
  });
});
