// isValidDecoded (the yes/no walk prepare.ts takes for a plan already in the decoded shape) against
// the checks that name the error (decoded.ts's isDecoded, validate.ts's validatePolicy): for every
// statement type, a statement with good fields is taken, and one with any field spoilt (wrong kind,
// missing, a string index or local that validatePolicy refuses) is refused by both, with the same
// error through prepare.ts.
import assert from "node:assert/strict";
import { RegoError } from "regoc";
import { decodePolicy } from "../../../../compiler/ir/decode.js";
import { STMT_FIELDS, type FieldKind } from "../../../../compiler/ir/fields.js";
import { decodeValidPolicy } from "../../../../compiler/ir/prepare.js";
import type { StmtType } from "../../../../compiler/ir/types.js";
import { isValidDecoded, validatePolicy } from "../../../../compiler/ir/validate.js";
import { valid, withLowerIndex, type J } from "./invalidPlans.js";

const loc = { file: 0, row: 1, col: 1 };
const local = (n: number) => ({ type: "local", value: n });

/** A good value of each kind (locals above the protected 0 and 1). */
const GOOD: Record<FieldKind, () => unknown> = {
  local: () => 5,
  operand: () => local(5),
  int: () => 3,
  uint: () => 0,
  string: () => "equal",
  block: () => ({ stmts: [] }),
  "blocks?": () => [{ stmts: [] }],
  "locals?": () => [],
  "operands?": () => [],
  "ints?": () => [0],
};

/** Fields a type needs other than GOOD's to be valid (valid()'s strings: "result", "x", "1.5"). */
const OVERRIDES: Partial<Record<StmtType, J>> = {
  CallStmt: { args: [local(5), { type: "string_index", value: 1 }] },
  CallDynamicStmt: { args: [0, 1], path: [{ type: "string_index", value: 1 }] },
  MakeNumberRefStmt: { index: 2 },
};

function goodStmt(type: StmtType): J {
  const stmt: J = {};
  for (const [name, kind] of Object.entries(STMT_FIELDS[type])) stmt[name] = GOOD[kind]();
  return { type, stmt: { ...stmt, ...OVERRIDES[type], ...loc } };
}

/** valid() with `s` added: in the plan for ResultSetAddStmt, else in a func of its own, inside 3
 * BlockStmts (CallDynamicStmt needs 3 levels to break out of). */
function planWith(s: J): J {
  const p = withLowerIndex(valid());
  if (s.type === "ResultSetAddStmt") {
    p.plans.plans[0].blocks[0].stmts.push(s);
    return p;
  }
  let inner: J = { stmts: [s] };
  for (let i = 0; i < 3; i++) inner = { stmts: [{ type: "BlockStmt", stmt: { blocks: [inner], ...loc } }] };
  p.funcs.funcs.push({ name: "g0.data.test.q", params: [0, 1], return: 2, path: ["g0", "test", "q"], blocks: [inner] });
  return p;
}

/** The statement planWith placed. */
function placed(p: J, type: StmtType): J {
  if (type === "ResultSetAddStmt") return p.plans.plans[0].blocks[0].stmts.at(-1);
  let b = p.funcs.funcs[1].blocks[0];
  for (let i = 0; i < 3; i++) b = b.stmts[0].stmt.blocks[0];
  return b.stmts[0];
}

function outcome(f: () => unknown): unknown {
  try {
    return f();
  } catch (e) {
    return e;
  }
}

/** Not taken as it is by isValidDecoded, and prepare.ts answers what decodePolicy +
 * validatePolicy answer: the same error, or (a plan the copying decoder takes, such as a missing
 * `?` array or an extra field) a copy equal to theirs. */
function assertNotTaken(p: J, what: string): void {
  assert.ok(!isValidDecoded(p), `${what}: taken`);
  const want = outcome(() => {
    const policy = decodePolicy(p);
    validatePolicy(policy);
    return policy;
  });
  const got = outcome(() => decodeValidPolicy(p));
  if (want instanceof RegoError) {
    assert.ok(got instanceof RegoError, `${what}: ${String(got)}`);
    assert.equal(got.message, want.message, what);
  } else {
    assert.ok(!(got instanceof Error), `${what}: ${String(got)}`);
    assert.notEqual(got, p, what);
    assert.deepEqual(got, want, what);
  }
}

/** Refused: isValidDecoded and the two steps (with the same error through prepare.ts). */
function assertRefused(p: J, what: string): void {
  assert.ok(outcome(() => validatePolicy(decodePolicy(p))) instanceof RegoError, `${what}: the two steps take it`);
  assertNotTaken(p, what);
}

const TYPES = Object.keys(STMT_FIELDS) as StmtType[];

describe("compiler/ir: isValidDecoded, statement by statement", () => {
  for (const type of TYPES) {
    it(`${type}: takes good fields, refuses each field spoilt`, () => {
      const good = planWith(goodStmt(type));
      assert.ok(isValidDecoded(good), "good statement refused");
      validatePolicy(decodePolicy(good));

      for (const [name, kind] of Object.entries(STMT_FIELDS[type])) {
        const wrongKind = planWith(goodStmt(type));
        placed(wrongKind, type).stmt[name] = kind === "string" ? 1 : "x";
        assertRefused(wrongKind, `${type}.${name} of the wrong kind`);

        const missing = planWith(goodStmt(type));
        delete placed(missing, type).stmt[name];
        assertNotTaken(missing, `${type}.${name} missing`);

        if (kind === "operand" || kind === "operands?") {
          const outOfRange = planWith(goodStmt(type));
          const s = placed(outOfRange, type).stmt;
          const op = { type: "string_index", value: 3 };
          if (kind === "operand") s[name] = op;
          else s[name] = [...(s[name] as unknown[]), op];
          assertRefused(outOfRange, `${type}.${name} string index out of range`);
        }
      }
      for (const field of ["file", "row", "col"]) {
        const bad = planWith(goodStmt(type));
        placed(bad, type).stmt[field] = -1;
        assertRefused(bad, `${type}.${field} negative`);
      }
      const extra = planWith(goodStmt(type));
      placed(extra, type).stmt.extra = 1;
      assertNotTaken(extra, `${type} with an extra field`);
      const fileOutOfRange = planWith(goodStmt(type));
      placed(fileOutOfRange, type).stmt.file = 1;
      assertRefused(fileOutOfRange, `${type} file index out of range`);
    });
  }

  it("refuses in-place mutation of a func's params, of each mutating statement type", () => {
    const mutated: Partial<Record<StmtType, string>> = { ArrayAppendStmt: "array", SetAddStmt: "set", ObjectInsertStmt: "object", ObjectInsertOnceStmt: "object" };
    for (const [type, field] of Object.entries(mutated) as [StmtType, string][]) {
      const p = planWith(goodStmt(type));
      placed(p, type).stmt[field] = 1;
      assertRefused(p, `${type} mutating param 1`);
    }
  });

  it("refuses what validatePolicy refuses in a statement in the decoded shape", () => {
    const cases: Array<[StmtType, string, (s: J) => void]> = [
      ["BreakStmt", "break out of the func", (s) => (s.stmt.index = 4)],
      ["MakeNumberIntStmt", "integer out of range", (s) => (s.stmt.value = 2 ** 60)],
      ["AssignIntStmt", "integer out of range", (s) => (s.stmt.value = 2 ** 60)],
      ["MakeNumberRefStmt", "not a number", (s) => (s.stmt.index = 1)],
      ["MakeNumberRefStmt", "index out of range", (s) => (s.stmt.index = 3)],
      ["WithStmt", "path index out of range", (s) => (s.stmt.path = [3])],
      ["CallStmt", "unknown function", (s) => (s.stmt.func = "nope")],
      ["CallStmt", "wrong number of arguments", (s) => s.stmt.args.pop()],
      ["CallDynamicStmt", "one argument", (s) => s.stmt.args.pop()],
      ["CallDynamicStmt", "empty path", (s) => (s.stmt.path = [])],
      ["ReturnLocalStmt", "ReturnLocalStmt in a plan", () => undefined],
    ];
    for (const [type, what, spoil] of cases) {
      const p = planWith(goodStmt(type));
      spoil(placed(p, type));
      if (what === "ReturnLocalStmt in a plan") p.plans.plans[0].blocks[0].stmts.push(goodStmt("ReturnLocalStmt"));
      assertRefused(p, `${type}: ${what}`);
    }
    // OPA's Index is taken as it is when it equals index, as by decoded.ts; else it is copied
    const withIndex = planWith(goodStmt("MakeNumberRefStmt"));
    placed(withIndex, "MakeNumberRefStmt").stmt.Index = 2;
    assert.ok(isValidDecoded(withIndex));
    placed(withIndex, "MakeNumberRefStmt").stmt.Index = 0;
    assertNotTaken(withIndex, "Index unlike index");
  });

  it("refuses a statement, operand or block whose prototype is not Object.prototype", () => {
    const inherit = (o: J) => Object.assign(Object.create({ inherited: 1 }), o);
    const spoils: Array<[string, (p: J) => void]> = [
      ["envelope", (p) => (p.funcs.funcs[1].blocks[0] = { stmts: [inherit(p.funcs.funcs[1].blocks[0].stmts[0])] })],
      ["body", (p) => (placed(p, "DotStmt").stmt = inherit(placed(p, "DotStmt").stmt))],
      ["operand", (p) => (placed(p, "DotStmt").stmt.key = inherit(local(5)))],
      ["block", (p) => (p.funcs.funcs[1].blocks[0] = inherit(p.funcs.funcs[1].blocks[0]))],
      ["class instance body", (p) => (placed(p, "DotStmt").stmt = Object.assign(new (class Body {})(), placed(p, "DotStmt").stmt))],
    ];
    for (const [what, spoil] of spoils) {
      const p = planWith(goodStmt("DotStmt"));
      assert.ok(isValidDecoded(p));
      spoil(p);
      assert.ok(!isValidDecoded(p), what);
      // not invalid: the copying decoder takes its own fields
      assert.notEqual(decodeValidPolicy(p), p, what);
    }
  });
});
