// Engine: a data store plus a set of Rego modules, answering any query with OPA's result shape.
//
//   const engine = await Engine.create({ policyDir: "policies" });
//   engine.loadData("/", JSON.parse(readFileSync("policies/data.json", "utf8")));
//   await engine.evaluate("data.authz.allow", input)
//     → [{ expressions: [{ value: true, text: "data.authz.allow", location: { row: 1, col: 1 } }], bindings: {} }]
//
// Each distinct query is compiled on first use and cached, the MAX_CACHED_QUERIES most recently
// used (the compiling promise is cached, so concurrent first uses compile once; a failed
// compilation is not cached).
import type { EvalOptions } from "./builtins/context.js";
import type { BuiltinTable } from "./builtins/registry.js";
import { Authorizer } from "./authorizer.js";
import { asRegoError, compileDecision, emptyQueryError, noPolicyFilesError, unreadablePolicyError, wrapCompileError, type CompiledDecision } from "./decision.js";
import { RegoError } from "./errors.js";
import { optionsWithDeadline, type DeadlineOptions } from "./eval/deadline.js";
import type { Bindings } from "./eval/prepared.js";
import { Store, parsePath, type StoragePath } from "./store/index.js";
import type { JSONValue } from "./value/json.js";
import type { JsonValue } from "../compiler/ast/opaJson.js";
import type { PartialOptions } from "../compiler/partial/index.js";
import type { CompileFilterOptions } from "../compiler/filter/compile.js";
import type { CompileFilterResponse } from "../compiler/filter/index.js";

export interface EngineOptions {
  /** Rego sources by file name. */
  modules?: Readonly<Record<string, string>>;
  /** A directory whose `.rego` files (recursively) are added to `modules`. */
  policyDir?: string;
  /** Parse the modules (and queries) as Rego v0. */
  v0Compatible?: boolean;
  /** Evaluation options (strict builtin errors, clock, print hook). */
  evalOptions?: EvalOptions;
  /** Custom builtins the modules may call (not in `partial` and `compileFilter`, which use the registered ones), by name: `{ "app.greet": { decl: { type: "function",
   * args: [{ type: "string" }], result: { type: "string" } }, fn: (ctx, name) => ... } }` (`async:
   * true` for a Promise). They add to, and override, the registered ones (registerBuiltins). */
  builtins?: BuiltinTable;
}

/** One result of a query, as OPA's REST API and `rego.Eval` return it. */
export interface QueryResult {
  expressions: { value: JSONValue; text: string; location: { row: number; col: number } }[];
  bindings: Record<string, JSONValue>;
}

/** Compiled queries an Engine keeps, the most recently used: its callers (regoc/server's clients)
 * choose the queries, so the cache is bounded. */
export const MAX_CACHED_QUERIES = 1000;

export interface EnginePartialOptions {
  input?: unknown;
  /** Refs declared unknown, e.g. ["input.fruits"]. */
  unknowns: string[];
  /** Rule refs not to inline. */
  disableInlining?: string[];
}

export class Engine {
  readonly store = new Store();
  readonly modules: Readonly<Record<string, string>>;
  private readonly v0: boolean;
  private readonly evalOptions: EvalOptions | undefined;
  private readonly builtins: BuiltinTable | undefined;
  private readonly cache = new Map<string, Promise<CompiledDecision>>();

  private constructor(modules: Record<string, string>, options: EngineOptions) {
    this.modules = Object.freeze(modules);
    this.v0 = options.v0Compatible === true;
    this.evalOptions = options.evalOptions;
    this.builtins = options.builtins;
  }

  /** Loads the modules; with at least one module, checks that they compile (errors wrapped). */
  static async create(options: EngineOptions = {}): Promise<Engine> {
    const modules: Record<string, string> = { ...(options.modules ?? {}) };
    if (options.policyDir !== undefined) Object.assign(modules, await readPolicyDir(options.policyDir));
    const engine = new Engine(modules, options);
    if (Object.keys(modules).length > 0) {
      // Compile the modules alone (the trivial query `true`): errors surface at creation.
      await engine.compiled("true");
    }
    return engine;
  }

  /**
   * Writes a value at a slash path of `data` ("/" replaces the whole document), in one committed
   * transaction. The value is checked and copied as JSON: BigInt, cycles, functions, undefined,
   * non-finite numbers and class instances are refused (storage_invalid_value_error). Missing
   * parent objects are created. On any failure the transaction is aborted: the store is unchanged.
   */
  loadData(path: string, value: unknown): void {
    const p = parsePath(path);
    this.store.write((txn) => {
      for (let i = 1; i < p.length; i++) {
        const parent: StoragePath = p.slice(0, i);
        if (txn.read(parent) === undefined) txn.add(parent, {});
      }
      txn.add(p, value);
    });
  }

  /** Evaluates any query against the current data and the given input; past `deadline`
   * (`timeoutMs`, `signal`) it fails with eval_cancel_error. */
  async evaluate(query: string, input?: unknown, deadline?: DeadlineOptions): Promise<QueryResult[]> {
    const compiled = await this.compiled(query);
    try {
      const rows = (await compiled.run(input, this.store.read(), optionsWithDeadline(this.evalOptions, deadline))) as Bindings[];
      const toJSON = compiled.toJSON;
      return rows.map((row) => {
        const bindings: Record<string, JSONValue> = {};
        for (const k of Object.keys(row)) if (!k.startsWith("$")) bindings[k] = toJSON(row[k]);
        const expressions = compiled.expressions.map((e) => ({
          value: e.key === undefined ? true : toJSON(row[e.key]),
          text: e.text,
          location: { ...e.location },
        }));
        return { expressions, bindings };
      });
    } catch (e) {
      // Converting a too deep result to JSON fails like evaluating it: a RegoError either way.
      throw asRegoError(e);
    }
  }

  /**
   * Partially evaluates a query with the given refs unknown (OPA's Compile API): the residual
   * queries and support modules in OPA's JSON AST form (`support` left out when there is none).
   */
  async partial(query: string, options: EnginePartialOptions): Promise<{ queries: JsonValue[]; support?: JsonValue[] }> {
    const { partialEval, partialToOpaJson } = await import("../compiler/partial/index.js");
    const opts: PartialOptions = { modules: this.modules, query, data: this.store.read(), unknowns: options.unknowns, v0Compatible: this.v0 };
    if (options.input !== undefined) opts.input = options.input;
    if (options.disableInlining) opts.disableInlining = options.disableInlining;
    return partialToOpaJson(await partialEval(opts));
  }

  /**
   * A data filter for the rule at `path` (`filters/include` or `data.filters.include`), as OPA's
   * compile API answers it (`{ result: { query, masks? } }`; no `result` when every row is
   * denied): partial evaluation with `unknowns` (default: the rule's `compile:` annotations)
   * translated for `target` (`postgresql`, `ucast.prisma`, or OPA's media type).
   */
  async compileFilter(path: string, options: CompileFilterOptions): Promise<CompileFilterResponse> {
    const { compileFilter } = await import("../compiler/filter/compile.js");
    return compileFilter(
      {
        modules: this.modules,
        v0Compatible: this.v0,
        data: this.store.read(),
        evaluate: async (query, input) => (await this.evaluate(query, input))[0]?.expressions[0]?.value,
      },
      path,
      options,
    );
  }

  /** An Authorizer for a decision of these modules that reads this engine's store (loadData
   * reaches it at once). */
  authorizer(query: string): Promise<Authorizer> {
    return Authorizer.create({
      modules: this.modules,
      query,
      data: this.store,
      v0Compatible: this.v0,
      ...(this.evalOptions && { evalOptions: this.evalOptions }),
      ...(this.builtins && { builtins: this.builtins }),
    });
  }

  private compiled(query: string): Promise<CompiledDecision> {
    if (typeof query !== "string" || query.trim() === "") {
      return Promise.reject(emptyQueryError("Engine"));
    }
    let p = this.cache.get(query);
    if (p) {
      // most recently used last: the first entry is the one evicted
      this.cache.delete(query);
      this.cache.set(query, p);
    } else {
      const compiling: Promise<CompiledDecision> = compileDecision({ modules: this.modules, query, asQuery: true, v0Compatible: this.v0, ...(this.builtins && { builtins: this.builtins }) }).catch((e: unknown) => {
        if (this.cache.get(query) === compiling) this.cache.delete(query);
        throw wrapCompileError(`Engine: query ${JSON.stringify(query)} does not compile`, e);
      });
      p = compiling;
      this.cache.set(query, p);
      if (this.cache.size > MAX_CACHED_QUERIES) this.cache.delete(this.cache.keys().next().value!);
    }
    return p;
  }
}

/** Every `.rego` file under dir (read as the HotReloader reads it: listPolicyFiles), keyed by its
 * path relative to the working directory. (node:fs is imported here, not at the top: the runtime
 * must load in browsers too.) */
async function readPolicyDir(dir: string): Promise<Record<string, string>> {
  const { readFile } = await import("node:fs/promises");
  const { join, relative } = await import("node:path");
  const { listPolicyFiles } = await import("./reloadFiles.js");
  const fail = (_path: string, e: unknown): RegoError => unreadablePolicyError("Engine", `policyDir ${JSON.stringify(dir)}`, e);
  const out: Record<string, string> = {};
  for (const rel of await listPolicyFiles(dir, (name) => name.endsWith(".rego"), fail)) {
    const full = join(dir, ...rel);
    out[relative(process.cwd(), full) || full] = await readFile(full, "utf8").catch((e: unknown) => {
      throw fail(full, e);
    });
  }
  if (Object.keys(out).length === 0) throw noPolicyFilesError("Engine", `policyDir ${JSON.stringify(dir)}`);
  return out;
}
