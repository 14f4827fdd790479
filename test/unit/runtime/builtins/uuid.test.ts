import { expect } from "chai";
import { EvalContext } from "../../../../runtime/builtins/context.js";
import { numberFromText } from "../../../../runtime/value/number.js";
import { builtinError, callBuiltin, runCases, typeErr, type BuiltinCase } from "../../../support/builtins.js";

const v2 = { clocksequence: 12800, domain: "Person", id: 1000, macvariables: "local:unicast", nodeid: "32-50-96-b3-9f-47", variant: "RFC4122", version: 2 };
const run = (name: string, cases: BuiltinCase[]) => describe(name, () => runCases(name, cases));

describe("builtins: uuid", () => {
  run("uuid.parse", [
    { note: "v4", args: ["00000000-0000-4000-8000-000000000000"], want: { variant: "RFC4122", version: 4 } },
    { note: "braces", args: ["{00000000-0000-4000-8000-000000000000}"], want: { variant: "RFC4122", version: 4 } },
    { note: "no dashes", args: ["6bea8ef2d3d33cd184e09bab06a52ece"], want: { variant: "RFC4122", version: 3 } },
    {
      note: "v2 fields with an exact nanosecond time",
      args: ["000003e8-48b9-21ee-b200-325096b39f47"],
      wantText:
        '{"clocksequence":12800,"domain":"Person","id":1000,"macvariables":"local:unicast","nodeid":"32-50-96-b3-9f-47","time":1693566990121469600,"variant":"RFC4122","version":2}',
    },
    { note: "v2 as URN", args: ["urn:uuid:000003e8-48b9-21ee-b200-325096b39f47"], want: { ...v2, time: numberFromText("1693566990121469600")! } },
    { note: "Microsoft variant", args: ["00000000-0000-4000-c000-000000000000"], want: { variant: "Microsoft", version: 4 } },
    { note: "invalid", args: ["not-a-uuid"], undefined: true },
    { note: "bad dash positions", args: ["000000000-000-4000-8000-000000000000"], undefined: true },
    { note: "not a string", args: [123], error: typeErr("operand 1 must be string but got number") },
  ]);

  describe("uuid.rfc4122", () => {
    it("makes a version 4, RFC 4122 UUID from the evaluation's random source", () => {
      const ctx = new EvalContext({ random: () => 0.999 });
      const u = callBuiltin("uuid.rfc4122", ["k"], {}, ctx) as string;
      expect(u).to.equal("ffffffff-ffff-4fff-bfff-ffffffffffff");
      expect(callBuiltin("uuid.parse", [u])).to.deep.include({ version: 4, variant: "RFC4122" });
    });
    it("gives one UUID per key within an evaluation, and new ones in the next evaluation", () => {
      let i = 0;
      const random = () => ((i++ * 7919) % 1000) / 1000;
      const ctx = new EvalContext({ random });
      const a = callBuiltin("uuid.rfc4122", ["k"], {}, ctx);
      expect(callBuiltin("uuid.rfc4122", ["k"], {}, ctx)).to.equal(a);
      expect(callBuiltin("uuid.rfc4122", ["other"], {}, ctx)).to.not.equal(a);
      expect(callBuiltin("uuid.rfc4122", ["k"], {}, new EvalContext({ random }))).to.not.equal(a);
    });
  });
});

describe("builtins: rand.intn", () => {
  it("draws in [0, |n|) and agrees for n and -n within an evaluation", () => {
    let i = 0;
    const draws = [0.5, 0.1];
    const ctx = new EvalContext({ random: () => draws[i++ % draws.length]! });
    expect(callBuiltin("rand.intn", ["k", 10], {}, ctx)).to.equal(5);
    expect(callBuiltin("rand.intn", ["k", -10], {}, ctx)).to.equal(5);
    expect(callBuiltin("rand.intn", ["other", 10], {}, ctx)).to.equal(1);
    expect(callBuiltin("rand.intn", ["k", 0], {}, ctx)).to.equal(0);
  });
  it("refuses fractional bounds", () => {
    const err = builtinError("rand.intn", ["k", 1.5]);
    expect([err.code, err.message]).to.deep.equal(["eval_type_error", "rand.intn: operand 2 must be integer number but got floating-point number"]);
  });
  it("gives the same draw for the same call within an evaluation, a new one in the next", () => {
    const draws = [0.5, 0.1, 0.9];
    let i = 0;
    const random = () => draws[i++ % draws.length]!;
    const ctx = new EvalContext({ random });
    expect(callBuiltin("rand.intn", ["k", 10], {}, ctx)).to.equal(5);
    expect(callBuiltin("rand.intn", ["k", 10], {}, ctx)).to.equal(5);
    expect(callBuiltin("rand.intn", ["k", 10], {}, new EvalContext({ random }))).to.equal(1);
  });
});
