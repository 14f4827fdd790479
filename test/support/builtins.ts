// The one harness for builtin tests (test/unit/runtime/builtins, the http.send integration test):
// a call goes through the registry's invoke policy, as generated code calls it (strict mode by
// default, so an error surfaces with its code and OPA's `name: ` prefix); table-driven cases, where
// each case expects exactly one of a value, undefined or an error, and an error case is also run
// non-strict, where a type or builtin error must make the call undefined.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "chai";
import { toJSONText, type EvalOptions, type RegoError, type Value } from "regoc";
import { EvalContext } from "../../runtime/builtins/context.js";
import { equal } from "../../runtime/value/compare.js";
import { getBuiltin, invokeBuiltin, invokeBuiltinAsync } from "../../runtime/builtins/registry.js";
import { newPlainObject, setOwn, type PlainObject } from "../../runtime/value/value.js";
import { loadAllBuiltins } from "../../runtime/builtins/catalog.js";
import { rejected, thrown } from "./errors.js";
import { describeWithShared, sharedDir } from "./shared.js";

// Builtins load by need: the harness calls them by name (some suites while they are defined), so
// every category is loaded first.
await loadAllBuiltins();

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

export const typeErr = (message: string) => ({ code: "eval_type_error", message });
export const builtinErr = (message: string) => ({ code: "eval_builtin_error", message });

/** A plain (null-prototype) object argument, as the runtime makes them. */
export function obj(fields: Record<string, Value>): PlainObject {
  const o = newPlainObject();
  for (const [k, v] of Object.entries(fields)) setOwn(o, k, v);
  return o;
}

/** Calls a registered builtin through the registry (strict unless `options` say otherwise). */
export function callBuiltin(name: string, args: Value[], options: EvalOptions = { strictBuiltinErrors: true }, ctx?: EvalContext): Value | undefined {
  const def = getBuiltin(name);
  if (def === undefined) throw new Error(`builtin ${name} is not registered`);
  return invokeBuiltin(ctx ?? new EvalContext(options), def, { name }, args);
}

/** The same for builtins that do I/O (http.send, net.lookup_ip_addr). */
export function callBuiltinAsync(name: string, args: Value[], options: EvalOptions = { strictBuiltinErrors: true }, ctx?: EvalContext): Promise<Value | undefined> {
  const def = getBuiltin(name);
  if (def === undefined) throw new Error(`builtin ${name} is not registered`);
  return invokeBuiltinAsync(ctx ?? new EvalContext(options), def, { name }, args);
}

/** The RegoError a call raises (strict mode); fails the test when the call returns instead. */
export function builtinError(name: string, args: Value[]): RegoError {
  return thrown(() => callBuiltin(name, args));
}

/** The RegoError an async call rejects with (strict mode); fails the test when it resolves instead. */
export function builtinErrorAsync(name: string, args: Value[]): Promise<RegoError> {
  return rejected(callBuiltinAsync(name, args));
}

function show(v: Value | undefined): string {
  return v === undefined ? "undefined" : toJSONText(v);
}

export function runCases(defaultName: string, cases: BuiltinCase[]): void {
  for (const tc of cases) {
    const name = tc.name ?? defaultName;
    const expectations = [tc.want !== undefined || tc.wantText !== undefined, tc.undefined === true, tc.error !== undefined].filter(Boolean).length;
    if (expectations !== 1) throw new Error(`case ${JSON.stringify(tc.note)} must expect exactly one of a value, undefined or an error`);
    it(tc.note, () => {
      if (tc.error) {
        const err = builtinError(name, tc.args);
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

/** Every builtin of OPA's capabilities whose name matches is registered, with OPA's arity. */
export function registersLikeOpa(names: RegExp): void {
  describeWithShared("registration", () => {
    it("registers every builtin of the category with OPA's name and arity", () => {
      const caps = JSON.parse(readFileSync(join(sharedDir, "opa", "capabilities-v1.20.2.json"), "utf8")) as { builtins: Array<{ name: string; decl: { args?: unknown[] } }> };
      const mine = caps.builtins.filter((b) => names.test(b.name));
      expect(mine.length).to.be.greaterThan(0);
      for (const b of mine) {
        const def = getBuiltin(b.name);
        expect(def, b.name).to.not.equal(undefined);
        expect(def!.fn.length - 1, b.name).to.equal((b.decl.args ?? []).length);
      }
    });
  });
}
