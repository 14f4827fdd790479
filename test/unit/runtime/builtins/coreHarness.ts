// Table-driven checks for the core builtin categories: each case calls a builtin through the
// registry's invoke policy (strict mode, so errors surface with their code and `name: ` prefix),
// and an error case is also run non-strict, where the call must be undefined.
import { expect } from "chai";
import { EvalContext, RegoError, equal, getBuiltin, invokeBuiltin, toJSONText, type EvalOptions, type Value } from "regoc";

export interface BuiltinCase {
  note: string;
  /** The builtin; defaults to the table's name. */
  name?: string;
  args: Value[];
  /** Expected value (structural equality, so sets and arrays differ and numbers compare exactly). */
  want?: Value;
  /** Expected exact JSON text of the result (numbers' digits, key order). */
  wantText?: string;
  /** The call is undefined (no error). */
  undefined?: true;
  /** Expected error: its code and the message after the `name: ` prefix. */
  error?: { code: string; message: string };
}

export function callBuiltin(name: string, args: Value[], options: EvalOptions = { strictBuiltinErrors: true }): Value | undefined {
  const def = getBuiltin(name);
  if (def === undefined) throw new Error(`builtin ${name} is not registered`);
  return invokeBuiltin(new EvalContext(options), def, { name }, args);
}

function show(v: Value | undefined): string {
  return v === undefined ? "undefined" : toJSONText(v);
}

export function runCases(defaultName: string, cases: BuiltinCase[]): void {
  for (const tc of cases) {
    const name = tc.name ?? defaultName;
    it(tc.note, () => {
      if (tc.error) {
        let caught: unknown;
        try {
          const got = callBuiltin(name, tc.args);
          expect.fail(`expected ${tc.error.code}, got ${show(got)}`);
        } catch (e) {
          caught = e;
        }
        expect(caught).to.be.instanceOf(RegoError);
        const err = caught as RegoError;
        expect(err.code).to.equal(tc.error.code);
        expect(err.message).to.equal(`${name}: ${tc.error.message}`);
        // Non-strict: type and builtin errors make the call undefined; other codes still raise.
        if (tc.error.code === "eval_type_error" || tc.error.code === "eval_builtin_error") {
          expect(callBuiltin(name, tc.args, {})).to.equal(undefined);
        }
        return;
      }
      const got = callBuiltin(name, tc.args);
      if (tc.undefined) {
        expect(got, show(got)).to.equal(undefined);
        return;
      }
      expect(got, "result").to.not.equal(undefined);
      if (tc.want !== undefined) expect(equal(got, tc.want), `got ${show(got)}, want ${show(tc.want)}`).to.equal(true);
      if (tc.wantText !== undefined) expect(toJSONText(got!)).to.equal(tc.wantText);
    });
  }
}
