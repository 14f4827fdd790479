// Compiling a decision at runtime, for the Authorizer and the Engine: Rego source + a query →
// a live generated module. The compiler (and with it ts-morph and esbuild) is imported lazily, on
// the first compilation, so that code which only runs ahead-of-time generated modules never loads it.
//
// Two shapes of query:
//   a rule path ("data.authz.allow")  → planned as an entrypoint: the function returns the
//                                       rule's value directly (fastest; what the Authorizer uses)
//   any other query ("x := data.a[_]") → planned as a query whose rows carry the bindings and the
//                                       value of each expression (`$expr<i>`), as OPA reports them
import type { EvalOptions } from "./builtins/context.js";
import { declaredBuiltins, type BuiltinTable } from "./builtins/registry.js";
import { RegoError, resourceError, type Location } from "./errors.js";
import type { Bindings, EntrypointInfo } from "./eval/prepared.js";
import type { JSONValue } from "./value/json.js";
import { newPlainObject, setOwn, type Value } from "./value/value.js";

export interface CompileDecisionOptions {
  /** Rego sources by file name. */
  modules: Readonly<Record<string, string>>;
  /** The query: a rule path (`data.authz.allow`) or any Rego query. */
  query: string;
  /** Force query mode even for a rule path (the Engine wants OPA's result shape). */
  asQuery?: boolean;
  v0Compatible?: boolean;
  /** Custom builtins of this compile (an Authorizer's or Engine's own, each with its `decl`):
   * besides the registered ones, which they override. */
  builtins?: BuiltinTable;
}

/** One expression of a compiled query, as OPA reports it. */
export interface QueryExpression {
  /** The expression's source text. */
  text: string;
  location: { row: number; col: number };
  /** The result-row key holding its value; absent when OPA reports `true` (assignments, `not`, `some`). */
  key?: string;
}

export interface CompiledDecision {
  /** "value": `run` returns the rule's value (undefined = no result); "rows": the result rows. */
  readonly mode: "value" | "rows";
  /** True when the query calls async builtins (http.send): `run` returns a Promise. */
  readonly async: boolean;
  /** The query's expressions ("rows" mode only). */
  readonly expressions: readonly QueryExpression[];
  readonly run: (input: unknown, data: unknown, options?: EvalOptions) => unknown;
  /** The generated module as it was loaded (a JavaScript function body: `language: "function"`), for debugging. */
  readonly source: string;
  /** toJSON of the runtime instance the generated module uses (sets → sorted arrays, ...). */
  readonly toJSON: (value: unknown) => JSONValue;
}

/** The value a decision's output stands for: the rule's value ("value" mode), or the first
 * expression's value in the one result row ("rows" mode; `true` for an expression that binds no
 * value); undefined when there is no result. More than one row is an `eval_invalid_result`
 * error: a decision has one answer. `what` names the decision in that message. */
export function decisionValue(compiled: CompiledDecision, out: unknown, what: string): unknown {
  if (compiled.mode === "value") return out;
  const rows = out as Bindings[];
  if (rows.length === 0) return undefined;
  if (rows.length > 1) throw multipleResultsError(what, rows.length);
  const key = compiled.expressions[0]?.key;
  return key === undefined ? true : rows[0]![key];
}

const RULE_PATH = /^\s*data(\.[A-Za-z_][A-Za-z0-9_]*)+\s*$/;

/** The entrypoint name of a rule-path query ("data.authz.allow" → "authz/allow"), else undefined. */
export function rulePath(query: string): string | undefined {
  if (!RULE_PATH.test(query)) return undefined;
  return query.trim().slice("data.".length).split(".").join("/");
}

/** Compiles a query against Rego modules. Compile errors are RegoErrors with OPA's codes. */
export async function compileDecision(options: CompileDecisionOptions): Promise<CompiledDecision> {
  const compiler = await import("../compiler/index.js").catch((e: unknown) => {
    throw compilerImportError(e);
  });
  let path = options.asQuery ? undefined : rulePath(options.query);
  // Custom builtins Rego may call: the registered ones that declare a type, then the compile's own.
  const custom: BuiltinTable = { ...declaredBuiltins(), ...options.builtins };
  const customNames = Object.keys(custom);
  const capabilities = customNames.length > 0 ? (await import("../compiler/builtins/custom.js")).capabilitiesWith(custom, "builtins") : undefined;
  const base = { modules: options.modules, v0Compatible: options.v0Compatible === true, ...(capabilities && { capabilities }) };
  const asQuery = () => compiler.planRegoDetailed({ ...base, query: options.query, captureExpressions: true });
  let planned;
  try {
    planned = path ? compiler.planRegoDetailed({ ...base, entrypoints: [path] }) : asQuery();
  } catch (e) {
    // A path that is not a rule (base data, a key of a rule's value): plan it as a query.
    if (path === undefined) throw e;
    path = undefined;
    planned = asQuery();
  }
  const entrypoint = planned.names[0]!;
  const asyncBuiltins = customNames.filter((n) => custom[n]!.async === true);
  const generated = compiler.generateTypeScript(planned.plan, { entrypoint, language: "function", asyncBuiltins });
  const { isBuiltin, missingBuiltinsError } = await import("./builtins/catalog.js");
  const missing = generated.builtins.filter((b) => !isBuiltin(b) && !Object.hasOwn(custom, b));
  if (missing.length > 0) throw missingBuiltinsError(missing);
  // The runtime by reference (an import bundlers follow), never by a path relative to the compiler;
  // the compile's own builtins are found after the categories' and before the registry's.
  const rt = await import("./eval/index.js");
  const own = options.builtins;
  const runtime = own === undefined || Object.keys(own).length === 0 ? rt : { ...rt, builtinSites: (table: string, ...categories: BuiltinTable[]) => rt.builtinSites(table, ...categories, own) };
  const mod = await compiler.loadModule(generated.code, { ...generated, runtime });
  const info = Object.hasOwn(mod.entrypoints, entrypoint) ? (mod.entrypoints[entrypoint] as EntrypointInfo) : undefined;
  if (!info) throw missingEntrypointError(entrypoint);
  const expressions = path ? [] : await queryExpressions(options.query, base.v0Compatible, planned.expressionKeys);
  const fn = info.fn as (input: unknown, data: unknown, options?: EvalOptions) => unknown;
  let run = fn;
  if (path === undefined && info.kind === "value") {
    // A query plan with one binding returns its value directly: give it the rows shape.
    const binding = info.binding ?? "result";
    const toRows = (v: unknown): Bindings[] => (v === undefined ? [] : [rowOf(binding, v)]);
    run = info.async
      ? async (input, data, opts) => toRows(await fn(input, data, opts))
      : (input, data, opts) => toRows(fn(input, data, opts));
  } else if (path !== undefined && info.kind === "resultset") {
    // A rule path whose plan returns rows: the decision is the first row's value.
    const first = (rows: unknown): unknown => {
      const row = (rows as Bindings[])[0];
      return row === undefined ? undefined : row[Object.keys(row)[0] ?? ""];
    };
    run = info.async ? async (input, data, opts) => first(await fn(input, data, opts)) : (input, data, opts) => first(fn(input, data, opts));
  }
  // The runtime as the generated module sees it: imported like the compiler, so that when a host
  // loads modules twice (a CommonJS test runner), values and the code reading them still agree.
  const { toJSON } = await import("./value/json.js");
  return {
    mode: path ? "value" : "rows",
    async: info.async,
    expressions,
    run,
    source: generated.code,
    toJSON: toJSON as (value: unknown) => JSONValue,
  };
}

function rowOf(key: string, value: unknown): Bindings {
  const row = newPlainObject();
  setOwn(row, key, value as Value);
  return row;
}

/** Text and location of each expression of the query (parsed again: the planner rewrote its copy). */
async function queryExpressions(query: string, v0: boolean, keys: ReadonlyMap<number, string>): Promise<QueryExpression[]> {
  const { parseQueryResult } = await import("../compiler/syntax/index.js");
  const parsed = parseQueryResult(query, { regoVersion: v0 ? "v0" : "v1" });
  return (parsed.body ?? []).map((e, i) => {
    const loc: Location = e.location;
    const out: QueryExpression = { text: loc.text ?? "", location: { row: loc.row, col: loc.col } };
    const key = keys.get(i);
    if (key !== undefined) out.key = key;
    return out;
  });
}

/** A RegoError, recognised by shape: a second copy of the runtime (two installed versions, or a
 * test runner that loads modules twice) has its own RegoError class, so `instanceof` is not enough. */
export function isRegoErrorLike(e: unknown): e is RegoError {
  const code = e instanceof Error ? (e as unknown as { code?: unknown }).code : undefined;
  return typeof code === "string" && /^[a-z]+(_[a-z]+)+$/.test(code);
}

/** The error as a RegoError of this runtime (its code, message, location and details kept). */
export function asRegoError(e: unknown, fallback: RegoError["code"] = "eval_internal_error"): RegoError {
  if (e instanceof RegoError) return e;
  const resource = resourceError(e);
  if (resource !== undefined) return resource;
  if (isRegoErrorLike(e)) {
    const src = e as RegoError;
    return new RegoError(src.code, src.message, src.location, { details: src.details, cause: e });
  }
  return new RegoError(fallback, e instanceof Error ? e.message : String(e), undefined, { cause: e });
}

/** Wraps a compile failure: the message says what failed, the cause keeps the original error. */
export function wrapCompileError(what: string, e: unknown): RegoError {
  // An internal error (the generated module could not be loaded) is not the policy's fault.
  if (isRegoErrorLike(e) && e.code === "eval_internal_error") what = what.replace(/ does not compile$/, " could not be loaded");
  if (isRegoErrorLike(e)) {
    return new RegoError(e.code, `${what}: ${e.message}`, e.location, { details: e.details, cause: e });
  }
  const message = e instanceof Error ? e.message : String(e);
  return new RegoError("rego_compile_error", `${what}: ${message}`, undefined, { cause: e });
}

// The errors of the decision APIs (Authorizer, Engine, HotReloader), by situation. `who` names the
// API in the message.

/** A query that is not a non-empty string; `hint` follows the message when given. */
export function emptyQueryError(who: string, hint = ""): RegoError {
  return new RegoError("rego_compile_error", `${who}: ${hint === "" ? "the query must be a non-empty string" : `\`query\` must be a non-empty string, ${hint}`}`);
}

/** A policy directory without any .rego file; `where` names it as the message shows it. */
export function noPolicyFilesError(who: string, where: string): RegoError {
  return new RegoError("rego_compile_error", `${who}: no .rego files in ${where}`);
}

/** A policy file or directory that cannot be read; `what` names it as the message shows it. */
export function unreadablePolicyError(who: string, what: string, e: unknown): RegoError {
  return new RegoError("rego_compile_error", `${who}: cannot read ${what}: ${e instanceof Error ? e.message : String(e)}`, undefined, { cause: e });
}

/** A decision with more than one result row. */
export function multipleResultsError(what: string, count: number): RegoError {
  return new RegoError("eval_invalid_result", `${what} produced ${count} results, expected one`);
}

/** A decision whose value is not a boolean where one is required; `value` is its description. */
export function notBooleanError(who: string, query: string, value: string): RegoError {
  return new RegoError("eval_invalid_result", `${who}: the decision ${query} is ${value}, not a boolean`);
}

/** A synchronous call of a decision whose policy calls async builtins. */
export function asyncPolicyError(who: string, instead: string): RegoError {
  return new RegoError("eval_internal_error", `${who}: this policy calls async builtins (e.g. http.send): use ${instead}`);
}

function compilerImportError(e: unknown): RegoError {
  return new RegoError("eval_internal_error", `cannot import the compiler (regoc/compiler): ${(e as Error).message}`, undefined, { cause: e });
}

function missingEntrypointError(entrypoint: string): RegoError {
  return new RegoError("eval_internal_error", `generated module has no entrypoint ${JSON.stringify(entrypoint)}`);
}
