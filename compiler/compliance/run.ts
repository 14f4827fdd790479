// Running one compliance case through a frontend (OPA's plan, or our Rego frontend) and judging it.
import { RegoError } from "../../runtime/errors.js";
import type { Value } from "../../runtime/value/value.js";
import type { ComplianceCase } from "./cases.js";
import { compareResults } from "./compare.js";

/** What a frontend hands back: something that evaluates the case's query. */
export interface Evaluable {
  evaluate(options: { input?: Value; data?: Value; strictBuiltinErrors?: boolean }): Promise<readonly Value[]>;
}

export interface Frontend {
  name: "plan" | "rego";
  prepare(c: ComplianceCase): Promise<Evaluable>;
  /** Turns an `input_term` (Rego term text) into a value. */
  parseInputTerm(text: string): Value;
}

export type FailureKind = "prepare" | "missing_builtin" | "mismatch" | "unexpected_error" | "wrong_error" | "no_error" | "crash";

export type Outcome =
  | { note: string; category: string; status: "pass"; ms: number }
  | { note: string; category: string; status: "fail"; kind: FailureKind; reason: string; missing?: string[]; ms: number };

const MISSING = /missing builtin(?:s| implementations?)?: (.+)$/m;

export async function runCase(frontend: Frontend, c: ComplianceCase): Promise<Outcome> {
  const t0 = performance.now();
  const done = (o: { status: "pass" } | { status: "fail"; kind: FailureKind; reason: string; missing?: string[] }): Outcome =>
    ({ note: c.note, category: c.category, ms: performance.now() - t0, ...o }) as Outcome;

  let prepared: Evaluable;
  try {
    prepared = await frontend.prepare(c);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const missing = MISSING.exec(message)?.[1]?.split(/,\s*/);
    if (missing) return done({ status: "fail", kind: "missing_builtin", reason: `missing builtin ${missing.join(", ")}`, missing });
    return done({ status: "fail", kind: e instanceof RegoError ? "prepare" : "crash", reason: oneLine(e) });
  }

  const wantsError = c.want_error_code !== undefined || c.want_error !== undefined;
  let input: Value | undefined = c.input;
  try {
    if (c.input_term !== undefined) input = frontend.parseInputTerm(c.input_term);
  } catch (e) {
    return done({ status: "fail", kind: "prepare", reason: `input_term: ${oneLine(e)}` });
  }

  let rows: readonly Value[];
  try {
    rows = await prepared.evaluate({ input, data: c.data ?? {}, strictBuiltinErrors: c.strict_error === true });
  } catch (e) {
    if (!(e instanceof RegoError)) return done({ status: "fail", kind: "crash", reason: oneLine(e) });
    if (!wantsError) return done({ status: "fail", kind: "unexpected_error", reason: oneLine(e) });
    if (c.want_error_code !== undefined && e.code !== c.want_error_code) {
      return done({ status: "fail", kind: "wrong_error", reason: `got ${e.code}, want ${c.want_error_code}: ${oneLine(e)}` });
    }
    return done({ status: "pass" });
  }
  if (wantsError) {
    return done({ status: "fail", kind: "no_error", reason: `want error ${c.want_error_code ?? ""} ${c.want_error ?? ""}`.trim() });
  }
  const cmp = compareResults(rows, c.want_plan_result ?? [], c.sort_bindings === true);
  return cmp.ok ? done({ status: "pass" }) : done({ status: "fail", kind: "mismatch", reason: cmp.diff });
}

function oneLine(e: unknown): string {
  const s = e instanceof RegoError ? e.toString() : e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  return s.replace(/\s+/g, " ").slice(0, 400);
}
