// Partial evaluation: a query evaluated with some refs declared unknown (`input.fruits`). What
// depends only on known input, data, rules and builtins is computed; what depends on an unknown
// is kept as residual expressions, one conjunction per way the query can succeed (OPA's
// `opa eval --partial`, the basis of the Compile API and of data filtering).
//
//   partialEval({ modules, query: "data.filters.include", input: { user: "bob" }, unknowns: ["input.fruits"] })
//     → { queries: [[input.fruits.owner = "bob"]], support: [] }
//
// The evaluator (eval.ts) runs on the program as the compiler stages leave it (compiler/passes).
import type { Body, Module } from "../ast/nodes.js";
import { printBody, printModule } from "../ast/print.js";
import { bodyToOpaJson, moduleToOpaJson, type JsonValue } from "../ast/opaJson.js";
import { loadAllBuiltins } from "../../runtime/builtins/catalog.js";
import { RegoError } from "../../runtime/errors.js";
import { compiledProgram, compiledQuery, parseUnknowns } from "./program.js";
import { PartialEvaluator } from "./eval.js";
import { partialInternalError, unknownsNotArrayError } from "./errors.js";

export interface PartialOptions {
  /** File name → Rego source (as Engine holds them). */
  modules: Readonly<Record<string, string>>;
  /** Any Rego query, e.g. "data.filters.include". */
  query: string;
  /** The known input (JSON); absent: undefined input. */
  input?: unknown;
  /** The known data document (JSON). */
  data?: unknown;
  /** Refs declared unknown, e.g. ["input.fruits"]; anything but a ref of input or data is an error. */
  unknowns: string[];
  /** Rule refs not to inline (OPA's disableInlining): kept as support rules when they depend on an unknown. */
  disableInlining?: string[];
  v0Compatible?: boolean;
}

export interface PartialResult {
  /** A disjunction of conjunctions: [] never true, [[]] always true. */
  queries: Body[];
  /** Rules kept as support modules (not inlined), as OPA's PartialQueries. */
  support: Module[];
}

/**
 * The residual queries of `options.query` with `options.unknowns` unknown. Partial evaluation runs
 * builtins as an interpreter does, so every builtin category is loaded first.
 */
export async function partialEval(options: PartialOptions): Promise<PartialResult> {
  await loadAllBuiltins();
  return evaluatePartially(options);
}

function evaluatePartially(options: PartialOptions): PartialResult {
  if (!Array.isArray(options.unknowns)) throw unknownsNotArrayError();
  const v0 = options.v0Compatible === true;
  const program = compiledProgram(options.modules, v0);
  const query = compiledQuery(program, options.query, v0);
  const unknowns = parseUnknowns(options.unknowns, "unknown");
  const disabled = parseUnknowns(options.disableInlining ?? [], "disableInlining entry");
  const evaluator = new PartialEvaluator(program.ctx, { input: options.input, data: options.data ?? {}, unknowns, disableInlining: disabled });
  try {
    return evaluator.run(query);
  } catch (e) {
    // a RegoError is the answer; the stack or memory running out, or a bug, becomes one
    if (e instanceof RegoError) throw e;
    throw partialInternalError(e);
  }
}

/** One residual query as Rego text (`true` when it is empty: it always holds). */
export function printQuery(query: Body): string {
  return query.length === 0 ? "true" : printBody(query);
}

/** The residual queries as Rego text, one query per line (an always-true query is `true`), then
 * the support modules. */
export function printResidual(result: PartialResult): string {
  const lines = result.queries.map(printQuery);
  const support = result.support.map((m) => printModule(m));
  return [lines.join("\n"), ...support].join("\n\n");
}

/** The result in OPA's JSON AST form, as the Compile API answers (`support` only when there is some). */
export function partialToOpaJson(result: PartialResult): { queries: JsonValue[]; support?: JsonValue[] } {
  const out: { queries: JsonValue[]; support?: JsonValue[] } = { queries: result.queries.map((q) => bodyToOpaJson(q)) };
  if (result.support.length > 0) out.support = result.support.map((m) => moduleToOpaJson(m));
  return out;
}
