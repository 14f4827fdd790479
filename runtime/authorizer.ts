// Authorizer: one policy decision, compiled once, evaluated per request.
//
//   const authz = await Authorizer.create({ modules, query: "data.authz.allow", data });
//   if (await authz.authorize(input)) ...
//
// The three rules of a decision:
//   the query has no result       → false
//   its value is not a boolean    → RegoError eval_invalid_result
//   evaluation fails              → the error is thrown (never turned into an answer)
// Creation fails with a RegoError that wraps the compile error (its code, location and cause).
import type { EvalOptions } from "./builtins/context.js";
import type { BuiltinTable } from "./builtins/registry.js";
import { asRegoError, asyncPolicyError, compileDecision, decisionValue, emptyQueryError, notBooleanError, wrapCompileError, type CompiledDecision } from "./decision.js";
import { RegoError } from "./errors.js";
import { optionsWithDeadline, type DeadlineOptions } from "./eval/deadline.js";
import { Store } from "./store/index.js";

export interface AuthorizerOptions {
  /** One Rego module's source (file name "policy.rego"). One of policy/modules is required. */
  policy?: string;
  /** Rego sources by file name. */
  modules?: Readonly<Record<string, string>>;
  /** The decision: a rule path (`data.authz.allow`, fastest) or a one-expression query. */
  query: string;
  /** The data document: JSON (copied into a new Store) or a Store (read at each decision). */
  data?: unknown;
  /** Parse the modules as Rego v0. */
  v0Compatible?: boolean;
  /** Evaluation options (strict builtin errors, clock, print hook; `timeoutMs` here bounds every
   * decision, a decision's own deadline wins). */
  evalOptions?: EvalOptions;
  /** Custom builtins this policy may call, by name: `{ "app.greet": { decl: { type: "function",
   * args: [{ type: "string" }], result: { type: "string" } }, fn: (ctx, name) => ... } }` (`async:
   * true` for a Promise). They add to, and override, the registered ones (registerBuiltins). */
  builtins?: BuiltinTable;
}

export class Authorizer {
  /** The data the policy reads as `data`; write to it with `store.write(txn => ...)`. */
  readonly store: Store;
  readonly query: string;
  private readonly compiled: CompiledDecision;
  private readonly evalOptions: EvalOptions | undefined;
  /** How errors name this decision (made once: decisions are the hot path). */
  private readonly label: string;

  private constructor(compiled: CompiledDecision, store: Store, query: string, evalOptions: EvalOptions | undefined) {
    this.compiled = compiled;
    this.store = store;
    this.query = query;
    this.evalOptions = evalOptions;
    this.label = `Authorizer: the query ${JSON.stringify(query)}`;
  }

  static async create(options: AuthorizerOptions): Promise<Authorizer> {
    if (typeof options !== "object" || options === null) throw new TypeError("Authorizer.create: options are required");
    if (typeof options.query !== "string" || options.query.trim() === "") {
      throw emptyQueryError("Authorizer", 'e.g. "data.authz.allow"');
    }
    const modules = modulesOf(options);
    const store = options.data instanceof Store ? options.data : new Store(options.data ?? {});
    let compiled: CompiledDecision;
    try {
      compiled = await compileDecision({ modules, query: options.query, v0Compatible: options.v0Compatible === true, ...(options.builtins && { builtins: options.builtins }) });
    } catch (e) {
      throw wrapCompileError("Authorizer: the policy does not compile", e);
    }
    if (compiled.mode === "rows" && compiled.expressions.length !== 1) {
      throw notOneExpressionError(compiled.expressions.length, options.query);
    }
    return new Authorizer(compiled, store, options.query, options.evalOptions);
  }

  /** True when the decision needs `authorize` (it calls async builtins such as http.send). */
  get async(): boolean {
    return this.compiled.async;
  }

  /** The generated module of the decision as it was loaded (JavaScript), for debugging. */
  get source(): string {
    return this.compiled.source;
  }

  /** The decision; past `deadline` (`timeoutMs`, `signal`) it fails with eval_cancel_error. */
  async authorize(input: unknown, deadline?: DeadlineOptions): Promise<boolean> {
    let out: unknown;
    try {
      out = await this.compiled.run(input, this.store.read(), optionsWithDeadline(this.evalOptions, deadline));
    } catch (e) {
      throw asRegoError(e);
    }
    return this.decide(out);
  }

  /** Synchronous decision; refused (eval_internal_error) when the policy calls async builtins. */
  authorizeSync(input: unknown, deadline?: DeadlineOptions): boolean {
    if (this.compiled.async) {
      throw asyncPolicyError("Authorizer", "authorize()");
    }
    let out: unknown;
    try {
      out = this.compiled.run(input, this.store.read(), optionsWithDeadline(this.evalOptions, deadline));
    } catch (e) {
      throw asRegoError(e);
    }
    return this.decide(out);
  }

  private decide(out: unknown): boolean {
    const value = decisionValue(this.compiled, out, this.label);
    if (value === undefined) return false;
    if (typeof value !== "boolean") {
      throw notBooleanError("Authorizer", this.query, describe(value));
    }
    return value;
  }
}

function modulesOf(options: AuthorizerOptions): Record<string, string> {
  const { policy, modules } = options;
  if (policy !== undefined && modules !== undefined) throw new TypeError("Authorizer.create: pass `policy` or `modules`, not both");
  if (typeof policy === "string") return { "policy.rego": policy };
  if (typeof modules === "object" && modules !== null) {
    const out: Record<string, string> = {};
    for (const [file, source] of Object.entries(modules)) {
      if (typeof source !== "string") throw new TypeError(`Authorizer.create: module ${JSON.stringify(file)} is not a string`);
      out[file] = source;
    }
    if (Object.keys(out).length === 0) throw new TypeError("Authorizer.create: `modules` is empty");
    return out;
  }
  throw new TypeError("Authorizer.create: pass the Rego source as `policy` (a string) or `modules` ({file: source})");
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "object") return (v as object).constructor?.name === "RegoSet" ? "a set" : "an object";
  return `a ${typeof v}`;
}

function notOneExpressionError(count: number, query: string): RegoError {
  return new RegoError("rego_compile_error", `Authorizer: the query must be one expression whose value is the decision, got ${count}: ${JSON.stringify(query)}`);
}
