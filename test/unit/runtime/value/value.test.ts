import { expect } from "chai";
import { BigNum, RegoObject, RegoSet, toJSON, toJSONText, type Value } from "regoc";
import { add, multiply, numberFromText } from "../../../../runtime/value/number.js";
import { compare, equal } from "../../../../runtime/value/compare.js";
import { fromJSONText } from "../../../../runtime/value/json.js";
import { objectGet, objectInsert } from "../../../../runtime/value/object.js";
import { newPlainObject, typeName } from "../../../../runtime/value/value.js";

describe("value model", () => {
  it("orders types as OPA does: null < boolean < number < string < array < object < set", () => {
    const vs: Value[] = [new RegoSet([1]), { a: 1 }, [1], "a", 1, true, null];
    const sorted = vs.slice().sort(compare).map(typeName);
    expect(sorted).to.deep.equal(["null", "boolean", "number", "string", "array", "object", "set"]);
  });

  it("compares numbers by value and keeps big integers exact", () => {
    const a = numberFromText("28857836529306024611913")!;
    const b = numberFromText("28857836529306024611912")!;
    expect(a).to.be.instanceOf(BigNum);
    expect(equal(a, b)).to.equal(false);
    expect(compare(a, b)).to.equal(1);
    expect(equal(numberFromText("1.0")!, 1)).to.equal(true);
    expect(toJSONText(multiply(numberFromText("9223372036854775807")!, 2)!)).to.equal("18446744073709551614");
    expect(toJSONText(add(9007199254740991, 2)!)).to.equal("9007199254740993");
    expect(toJSONText(numberFromText("2e308")!)).to.equal("2e308");
  });

  it("treats an integer double beyond 2^53 and the equal BigNum as one value", () => {
    const s = new RegoSet([1e20]);
    expect(s.has(numberFromText("100000000000000000000")!)).to.equal(true);
  });

  it("orders strings by code point, not UTF-16 unit", () => {
    expect(compare("\u{1F600}", "\uFFFF")).to.equal(1);
    expect(compare("a", "b")).to.equal(-1);
  });

  it("sets of strings and object keys iterate by code point, with or without surrogates", () => {
    expect(toJSON(new RegoSet(["b", "a10", "a2", "A", "", "a"]))).to.deep.equal(["", "A", "a", "a10", "a2", "b"]);
    expect(toJSON(new RegoSet(["\u{1F600}", "\uffff", "a", "\ue000", "\ud7ff"]))).to.deep.equal(["a", "\ud7ff", "\ue000", "\uffff", "\u{1F600}"]);
    expect(toJSONText({ "\u{1F600}": 1, "\uffff": 2, b: 3, a: 4 })).to.equal('{"a":4,"b":3,"\uffff":2,"\u{1F600}":1}');
  });

  it("sets deduplicate structurally and iterate in OPA order", () => {
    const s = new RegoSet([{ b: 1, a: [2] }, "x", { a: [2], b: 1 }, 3, 1.0, 1]);
    expect(s.size).to.equal(4);
    expect(toJSON(s)).to.deep.equal([1, 3, "x", { a: [2], b: 1 }]);
  });

  it("sets of one-entry objects (a violation set's {msg}) deduplicate, look up and order as any object", () => {
    const made = newPlainObject();
    objectInsert(made, "msg", "b");
    const s = new RegoSet<Value>([{ msg: "b" }, { msg: "a" }, made, { msg: 1 }, { msg: 1.0 }, { id: "a" }, { msg: ["a"] }, { msg: "a", n: 1 }, {}]);
    expect(s.size).to.equal(7);
    expect(toJSON(s)).to.deep.equal([{}, { id: "a" }, { msg: 1 }, { msg: "a" }, { msg: "a", n: 1 }, { msg: "b" }, { msg: ["a"] }]);
    expect(s.has({ msg: "a" })).to.equal(true);
    expect(s.has(made)).to.equal(true);
    expect(s.has({ msg: "c" })).to.equal(false);
    expect(s.has({ id: "b" })).to.equal(false);
    expect(s.get({ msg: 1.0 })).to.deep.equal({ msg: 1 });
    expect(s.has(new RegoObject([["msg", "b"]]))).to.equal(true);
    expect(equal(s, new RegoSet<Value>([...s]))).to.equal(true);
    expect(s.canonical()).to.equal(new RegoSet<Value>([...s].reverse()).canonical());
    // An inherited enumerable key is not an entry.
    const child = Object.create({ msg: "a" }) as Value;
    expect(new RegoSet<Value>([child]).has({ msg: "a" })).to.equal(false);
  });

  it("reads own properties only and lets __proto__ be a plain key", () => {
    const input = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Value;
    expect(objectGet(input as never, "__proto__")).to.deep.equal({ polluted: true });
    expect(objectGet({ a: 1 }, "toString")).to.equal(undefined);
    let o = objectInsert(newPlainObject(), "__proto__", 1);
    o = objectInsert(o, "constructor", 2);
    expect(Object.keys(o)).to.deep.equal(["__proto__", "constructor"]);
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
  });

  it("upgrades to RegoObject on a non-string key and serialises keys as JSON text", () => {
    let o = objectInsert(newPlainObject(), "a", 1);
    o = objectInsert(o, [1, 2], "x");
    expect(o).to.be.instanceOf(RegoObject);
    expect(toJSON(o)).to.deep.equal({ a: 1, "[1,2]": "x" });
  });

  it("parses JSON without losing digits", () => {
    const v = fromJSONText('{"n": 18446744073709551614, "f": 1.5}');
    expect(toJSONText(v)).to.equal('{"f":1.5,"n":18446744073709551614}');
  });
});
