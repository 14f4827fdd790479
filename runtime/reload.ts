// Hot reloader: a decision whose policy follows a directory of Rego files.
//
//   const policy = await HotReloader.create({ dir: "policies", query: "data.authz.allow", onError: log });
//   await policy.authorize(input);   // the Authorizer rules: no result → false, non-boolean → error
//   await policy.close();
//
// How a reload goes (the watch loop is reloadWatch.ts, shared with `regoc build --watch`):
//   - chokidar reports add/change/unlink of a `.rego` file or a data document (reloadFiles.ts);
//   - debounceMs (100 milliseconds) after the LAST such event the whole directory is read and
//     compiled again (an Engine for the modules and data, and its Engine.authorizer for the query);
//   - success swaps the loaded state in one assignment: a decision in flight keeps the state it
//     started with, the next one sees the new policy; failure keeps the old state and reports the
//     error (onError, status().lastError) — an editor's half-written file never takes a policy down.
// Compiles never overlap: an event during a compile marks the state dirty and one more compile runs
// after it, so the last write always wins, and a result is always newer than the one it replaces.
//
// chokidar and node:fs are imported lazily: the runtime index must stay loadable in browsers.
import type { EvalOptions } from "./builtins/context.js";
import type { BuiltinTable } from "./builtins/registry.js";
import type { Authorizer } from "./authorizer.js";
import { asRegoError, isRegoErrorLike, wrapCompileError } from "./decision.js";
import { Engine, type QueryResult } from "./engine.js";
import { RegoError } from "./errors.js";
import type { DeadlineOptions } from "./eval/deadline.js";
import { formatPath } from "./store/path.js";
import { isPolicyFile, readPolicyTree, type PolicyTree } from "./reloadFiles.js";
import { ReloadWatch, isConfigMapSnapshot } from "./reloadWatch.js";

export interface HotReloaderOptions {
  /** The policy directory: its `.rego` files (recursively) and `data.json`/`data.yaml` documents. */
  dir: string;
  /** The decision: a rule path (`data.authz.allow`) or a one-expression query. Alias: `entrypoint`. */
  query?: string;
  entrypoint?: string;
  /** Base data, loaded before the directory's data documents (JSON, copied at every reload). */
  data?: Record<string, unknown>;
  v0Compatible?: boolean;
  evalOptions?: EvalOptions;
  /** Custom builtins the policies may call (AuthorizerOptions.builtins). */
  builtins?: BuiltinTable;
  /** Quiet time after the last file event before recompiling, in milliseconds; default 100, at least 60 (reloadWatch.ts). */
  debounceMs?: number;
  /** Called after each successful reload (not after the first load). */
  onReload?: (event: ReloadEvent) => void;
  /** Called when a reload fails (the old policy keeps answering); default console.error. */
  onError?: (error: RegoError) => void;
}

export interface ReloadEvent {
  /** 1 for the first load, +1 for each successful reload. */
  generation: number;
  /** sha256 prefix of the directory's policy files: the same files give the same revision. */
  revision: string;
  /** The Rego files compiled. */
  files: string[];
}

export interface ReloadStatus extends ReloadEvent {
  /** Compiles started so far, successful or not (the first load included). */
  compiles: number;
  /** The error of the last reload when it failed; cleared by the next success. */
  lastError: RegoError | undefined;
  /** True while a compile runs. */
  compiling: boolean;
  closed: boolean;
}

/** Everything one compile produced; replaced as a whole. */
interface Loaded extends ReloadEvent {
  readonly engine: Engine;
  readonly authorizer: Authorizer;
}

interface Settings {
  dir: string;
  query: string;
  data: Record<string, unknown>;
  v0Compatible: boolean;
  evalOptions: EvalOptions | undefined;
  builtins: BuiltinTable | undefined;
  debounceMs: number;
  onReload: ((event: ReloadEvent) => void) | undefined;
  onError: (error: RegoError) => void;
}

export class HotReloader {
  private readonly settings: Settings;
  private current: Loaded | undefined;
  private watch: ReloadWatch | undefined;
  /** Compiles started so far (status().compiles). */
  private compiles = 0;
  private lastError: RegoError | undefined;
  private closed = false;

  private constructor(settings: Settings) {
    this.settings = settings;
  }

  /** Watches `dir` and loads it; resolves after the first successful load. If that load fails,
   * rejects with its error (file:row:col for Rego errors) and leaves no watcher behind. */
  static async create(options: HotReloaderOptions): Promise<HotReloader> {
    const reloader = new HotReloader(settingsOf(options));
    await reloader.open();
    return reloader;
  }

  /** The decision, by the Authorizer's rules (no result → false, non-boolean → eval_invalid_result). */
  authorize(input: unknown, deadline?: DeadlineOptions): Promise<boolean> {
    return this.loaded().authorizer.authorize(input, deadline);
  }

  /** The query's results in OPA's shape (`[{expressions, bindings}]`), from the current policy. */
  evaluate(input: unknown, deadline?: DeadlineOptions): Promise<QueryResult[]> {
    return this.loaded().engine.evaluate(this.settings.query, input, deadline);
  }

  /** The query's value (JSON; sets as sorted arrays), or undefined when it has no result. */
  async decide(input: unknown, deadline?: DeadlineOptions): Promise<unknown> {
    const results = await this.evaluate(input, deadline);
    return results[0]?.expressions[0]?.value;
  }

  get query(): string {
    return this.settings.query;
  }

  status(): ReloadStatus {
    const { generation, revision, files } = this.loaded();
    return {
      generation,
      revision,
      files: [...files],
      compiles: this.compiles,
      lastError: this.lastError,
      compiling: this.watch?.busy === true,
      closed: this.closed,
    };
  }

  /** Stops watching and drops any pending reload; waits for a running compile (its result is
   * discarded). Decisions keep using the last loaded policy. Idempotent. */
  async close(): Promise<void> {
    this.closed = true;
    await this.watch?.close();
  }

  private loaded(): Loaded {
    if (!this.current) throw notLoadedError();
    return this.current;
  }

  /** Watcher first, then the first load: a write that lands during the first load is not lost. */
  private async open(): Promise<void> {
    try {
      const { relative, sep } = await import("node:path");
      const { dir, debounceMs } = this.settings;
      this.watch = await ReloadWatch.start({
        paths: [dir],
        debounceMs,
        // (a ConfigMap update swaps its `..data` link to a new snapshot directory)
        relevant: (path) => isPolicyFile(path) || isConfigMapSnapshot(relative(dir, path).split(sep)[0]!),
        rebuild: () => this.compile(),
        report: (e) => this.report(e),
        label: `HotReloader: watching ${JSON.stringify(dir)}`,
      });
      const error = await this.watch.first();
      if (error) throw error;
    } catch (e) {
      await this.close();
      throw asRegoError(e);
    }
  }

  /** One compile of the whole directory; swaps it in on success, returns the error on failure. */
  private async compile(): Promise<RegoError | undefined> {
    this.compiles++;
    let next: Loaded;
    try {
      next = await this.load();
    } catch (e) {
      return asRegoError(e, "rego_compile_error");
    }
    // Closed meanwhile: drop this result. (Compiles run one at a time: no newer result can be in.)
    if (this.closed) return undefined;
    this.current = next; // the swap
    this.lastError = undefined;
    if (next.generation > 1) this.notify(next);
    return undefined;
  }

  private async load(): Promise<Loaded> {
    const { dir, query, v0Compatible, evalOptions, builtins } = this.settings;
    const tree = await readPolicyTree(dir);
    const options = { v0Compatible, ...(evalOptions && { evalOptions }), ...(builtins && { builtins }) };
    const engine = await compiling(dir, () => Engine.create({ modules: tree.modules, ...options }));
    loadData(engine, this.settings.data, tree);
    const authorizer = await compiling(dir, () => engine.authorizer(query));
    const generation = (this.current?.generation ?? 0) + 1;
    return { engine, authorizer, generation, revision: tree.revision, files: Object.keys(tree.modules) };
  }

  private notify(loaded: Loaded): void {
    const { generation, revision, files } = loaded;
    try {
      this.settings.onReload?.({ generation, revision, files: [...files] });
    } catch (e) {
      console.error("HotReloader: onReload threw:", e);
    }
  }

  private report(error: RegoError): void {
    if (this.closed) return;
    this.lastError = error;
    try {
      this.settings.onError(error);
    } catch (e) {
      console.error("HotReloader: onError threw:", e);
    }
  }
}

/** Base data first, then each document's keys at its directory's path (parents before children). */
function loadData(engine: Engine, base: Record<string, unknown>, tree: PolicyTree): void {
  engine.loadData("/", base);
  for (const doc of tree.data) {
    const { path, value } = doc;
    if (path.length > 0 && (typeof value !== "object" || value === null || Array.isArray(value))) engine.loadData(formatPath(path), value);
    else for (const [key, v] of Object.entries(value as Record<string, unknown>)) engine.loadData(formatPath([...path, key]), v);
  }
}

async function compiling<T>(dir: string, create: () => Promise<T>): Promise<T> {
  try {
    return await create();
  } catch (e) {
    throw wrapCompileError(`HotReloader: the policy in ${JSON.stringify(dir)} does not compile`, innermost(e));
  }
}

/** Engine and Authorizer each wrap the compiler's error in a sentence of their own; the reloader's
 * sentence replaces theirs (the compiler's code, message and location are what a user needs). */
function innermost(e: unknown): unknown {
  let out = e;
  while (out instanceof Error && isRegoErrorLike(out.cause)) out = out.cause;
  return out;
}

function settingsOf(options: HotReloaderOptions): Settings {
  if (typeof options !== "object" || options === null) throw new TypeError("HotReloader.create: options are required");
  if (typeof options.dir !== "string" || options.dir === "") throw new TypeError("HotReloader.create: `dir` must be a directory path");
  if (options.query !== undefined && options.entrypoint !== undefined) {
    throw new TypeError("HotReloader.create: pass `query` or `entrypoint`, not both");
  }
  const query = options.query ?? options.entrypoint;
  if (typeof query !== "string" || query.trim() === "") {
    throw new TypeError("HotReloader.create: `query` must be a non-empty string, e.g. \"data.authz.allow\"");
  }
  const debounceMs = options.debounceMs ?? 100;
  if (!Number.isFinite(debounceMs) || debounceMs < 0) throw new TypeError("HotReloader.create: `debounceMs` must be a number >= 0");
  return {
    dir: options.dir,
    query,
    data: options.data ?? {},
    v0Compatible: options.v0Compatible === true,
    evalOptions: options.evalOptions,
    builtins: options.builtins,
    debounceMs,
    onReload: options.onReload,
    onError: options.onError ?? ((e) => console.error(`HotReloader: reload failed, the previous policy stays: ${e.toString()}`)),
  };
}

function notLoadedError(): RegoError {
  return new RegoError("eval_internal_error", "HotReloader: no policy loaded");
}
