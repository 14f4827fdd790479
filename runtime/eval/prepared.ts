// PreparedQuery: one entrypoint of a loaded generated module, evaluated with OPA's result-set
// contract. Generated modules export a table of their entrypoints (`entrypoints`), each either
// returning its value directly (kind "value": a plan whose single binding is added once, outside
// any loop) or a result set (kind "resultset"); this class gives both the same shape.
import { RegoError, resourceError } from "../errors.js";
import { checkSignal } from "./deadline.js";
import type { EvalOptions } from "../builtins/context.js";
import { newPlainObject, setOwn, type PlainObject, type Value } from "../value/value.js";
import { asyncEntrypointError, noEntrypointError } from "./errors.js";

/** One row of a result set: the query's variable bindings. */
export type Bindings = PlainObject;
/** OPA's result set: every solution's bindings (order unspecified, no duplicates). */
export type ResultSet = Bindings[];

/** An entry of a generated module's `entrypoints` table. */
export interface EntrypointInfo {
  /** "value": `fn` returns the binding's value (undefined = no result); "resultset": the rows. */
  readonly kind: "value" | "resultset";
  /** The variable name of the single binding of a "value" entrypoint (e.g. "result"). */
  readonly binding?: string;
  /** True when the plan calls an async builtin: `fn` returns a Promise. */
  readonly async: boolean;
  readonly fn: (input: never, data: never, options?: EvalOptions) => unknown;
}

export type EntrypointTable = Readonly<Record<string, EntrypointInfo>>;

export interface EvaluateOptions extends EvalOptions {
  /** The input document; absent = undefined input. */
  input?: unknown;
  /** The data document; absent = {}. */
  data?: unknown;
  /** Another entrypoint of the same module (default: the prepared one). */
  entrypoint?: string;
}

export class PreparedQuery {
  /** The entrypoint `evaluate` runs by default, e.g. "authz/allow". */
  readonly entrypoint: string;
  /** The generated module as it was loaded, for debugging (compilePlan and compileRego load it
   * as a JavaScript function body; `generateTypeScript` gives the typed module). */
  readonly source: string;
  private readonly table: EntrypointTable;

  constructor(table: EntrypointTable, entrypoint: string, source: string) {
    if (!Object.hasOwn(table, entrypoint)) {
      throw noEntrypointError(entrypoint);
    }
    this.table = table;
    this.entrypoint = entrypoint;
    this.source = source;
  }

  /** The names of every entrypoint of the module. */
  get entrypoints(): string[] {
    return Object.keys(this.table);
  }

  /** True when the entrypoint calls async builtins (http.send): `evaluateSync` refuses it. */
  get async(): boolean {
    return this.info(this.entrypoint).async;
  }

  /** The result set, synchronously; refused (eval_internal_error) when the entrypoint is async. */
  evaluateSync(options: EvaluateOptions = {}): ResultSet {
    const name = options.entrypoint ?? this.entrypoint;
    const info = this.info(name);
    if (info.async) {
      throw asyncEntrypointError(name);
    }
    checkSignal(options);
    try {
      return rows(info, info.fn(options.input as never, (options.data ?? undefined) as never, options));
    } catch (e) {
      throw resourceError(e) ?? e;
    }
  }

  /** The result set: any entrypoint, async builtins (http.send) included. */
  async evaluate(options: EvaluateOptions = {}): Promise<ResultSet> {
    const info = this.info(options.entrypoint ?? this.entrypoint);
    checkSignal(options);
    try {
      return rows(info, await info.fn(options.input as never, (options.data ?? undefined) as never, options));
    } catch (e) {
      throw resourceError(e) ?? e;
    }
  }

  private info(name: string): EntrypointInfo {
    if (!Object.hasOwn(this.table, name)) throw noEntrypointError(name);
    return this.table[name]!;
  }
}

function rows(info: EntrypointInfo, out: unknown): ResultSet {
  if (info.kind === "resultset") return out as ResultSet;
  if (out === undefined) return [];
  const row = newPlainObject();
  setOwn(row, info.binding ?? "result", out as Value);
  return [row];
}
