// Table-driven checks for the strings-and-encodings builtins (strings, sprintf, encoding, json,
// yaml, units, semver, uuid, rand). Cases call a category table's fn with a strict EvalContext,
// so a failure surfaces as the RegoError the builtin throws (code and message; the registry adds
// the `name: ` prefix later). Values compare structurally; wantText pins the exact JSON text.
import { expect } from "chai";
import { EvalContext, RegoError, equal, toJSONText, type EvalOptions, type Value } from "regoc";
import type { BuiltinFn, BuiltinTable } from "../../../../runtime/builtins/registry.js";

export interface Case {
  note: string;
  /** The builtin; defaults to the describe's name. */
  name?: string;
  args: Value[];
  want?: Value;
  /** Exact JSON text of the result (digits of numbers, key order). */
  wantText?: string;
  /** The call is undefined without an error. */
  undefined?: true;
  /** Expected error: code and message (without the `name: ` prefix). */
  error?: { code: string; message: string };
}

export const typeErr = (message: string) => ({ code: "eval_type_error", message });
export const builtinErr = (message: string) => ({ code: "eval_builtin_error", message });

export function call(table: BuiltinTable, name: string, args: Value[], options: EvalOptions = { strictBuiltinErrors: true }, ctx?: EvalContext): Value | undefined {
  const def = table[name];
  if (def === undefined) throw new Error(`builtin ${name} is not in the table`);
  return (def.fn as BuiltinFn)(ctx ?? new EvalContext(options), ...args);
}

function show(v: Value | undefined): string {
  return v === undefined ? "undefined" : toJSONText(v);
}

export function runCases(table: BuiltinTable, defaultName: string, cases: Case[]): void {
  for (const tc of cases) {
    const name = tc.name ?? defaultName;
    it(tc.note, () => {
      if (tc.error) {
        let caught: unknown;
        try {
          const got = call(table, name, tc.args);
          expect.fail(`expected ${tc.error.code}, got ${show(got)}`);
        } catch (e) {
          caught = e;
        }
        expect(caught, String(caught)).to.be.instanceOf(RegoError);
        const err = caught as RegoError;
        expect(err.code).to.equal(tc.error.code);
        expect(err.message).to.equal(tc.error.message);
        return;
      }
      const got = call(table, name, tc.args);
      if (tc.undefined) {
        expect(got, show(got)).to.equal(undefined);
        return;
      }
      expect(got, "result").to.not.equal(undefined);
      if (tc.want !== undefined) expect(equal(got, tc.want), `got ${show(got)}, want ${show(tc.want)}`).to.equal(true);
      if (tc.wantText !== undefined) expect(show(got)).to.equal(tc.wantText);
    });
  }
}
