// Turning a parsed bundle into something that answers decisions: the data becomes a Store, the
// Rego modules (or the plan.json) are compiled into a generated module and import()ed. Nothing is
// shared with the bundle that serves now: the client swaps the returned ActiveBundle in one
// assignment, so a decision sees the whole old bundle or the whole new one.
import { LruCache } from "../builtins/lruCache.js";
import { asRegoError, compileDecision, decisionValue, wrapCompileError } from "../decision.js";
import { RegoError } from "../errors.js";
import type { DeadlineOptions } from "../eval/deadline.js";
import type { Bindings } from "../eval/prepared.js";
import { Store } from "../store/index.js";
import type { JSONValue } from "../value/json.js";
import type { Manifest, ParsedBundle } from "./archive.js";
import { underRoots } from "./roots.js";
import { moduleOutsideRootsError, noPlanEntrypointError } from "./errors.js";

/** Evaluates one decision path against the bundle's data: the client's answer ({} when undefined). */
type Evaluator = (input: unknown, data: unknown, deadline: DeadlineOptions | undefined) => Promise<{ result?: JSONValue }>;

/** Compiled decision paths kept per bundle: callers choose the paths, so the cache is bounded. */
export const MAX_DECISION_PATHS = 100;

export class ActiveBundle {
  readonly revision: string;
  readonly roots: readonly string[];
  private readonly store: Store;
  private readonly evaluators = new LruCache<Promise<Evaluator>>(MAX_DECISION_PATHS);

  constructor(
    manifest: Manifest,
    data: Record<string, unknown>,
    private readonly compile: (path: string) => Promise<Evaluator>,
    /** Whether the bundle can answer a path at all (a plan.json only its entrypoints). */
    private readonly has: (path: string) => boolean = () => true,
  ) {
    this.revision = manifest.revision;
    this.roots = manifest.roots;
    this.store = new Store(data);
  }

  /** The paths compiled and kept (at most MAX_DECISION_PATHS): a new bundle warms them. */
  get paths(): string[] {
    return this.evaluators.keys();
  }

  /** Compiles (once) the evaluator of a path ("authz/allow"). A failed compilation is not cached. */
  evaluator(path: string): Promise<Evaluator> {
    return this.evaluators.get(path, () => {
      const p = this.compile(path);
      p.catch(() => this.evaluators.delete(path));
      return p;
    });
  }

  async decide(path: string, input: unknown, deadline?: DeadlineOptions): Promise<{ result?: JSONValue }> {
    const evaluate = await this.evaluator(path);
    return evaluate(input, this.store.read(), deadline);
  }

  /** A rule the bundle may lack (the decision log's drop and mask rules): undefined then. */
  async optional(path: string, input: unknown): Promise<JSONValue | undefined> {
    return this.has(path) ? (await this.decide(path, input)).result : undefined;
  }
}

/**
 * Compiles the bundle (a failure rejects: nothing is swapped) and warms the decision paths the
 * serving bundle used. A path the new bundle lacks is not warmed and does not block it: a decision
 * on it fails with that path's own error.
 */
export async function activate(bundle: ParsedBundle, warmPaths: readonly string[]): Promise<ActiveBundle> {
  const { compile, has } = bundle.plan !== undefined ? await planEvaluators(bundle.plan) : { compile: await regoEvaluators(bundle), has: undefined };
  const active = new ActiveBundle(bundle.manifest, bundle.data, compile, has);
  for (const path of warmPaths) await active.evaluator(path).catch(() => undefined);
  return active;
}

async function regoEvaluators(bundle: ParsedBundle): Promise<(path: string) => Promise<Evaluator>> {
  const modules = bundle.modules;
  await checkPackages(modules, bundle.manifest.roots);
  if (Object.keys(modules).length > 0) {
    // The trivial query compiles every module: errors surface at activation, not at a decision.
    await compileDecision({ modules, query: "true", asQuery: true }).catch((e: unknown) => {
      throw wrapCompileError("bundle: the policy does not compile", e);
    });
  }
  return async (path) => {
    const query = "data." + path.split("/").join(".");
    const compiled = await compileDecision({ modules, query }).catch((e: unknown) => {
      throw wrapCompileError(`bundle: decision ${JSON.stringify(path)} does not compile`, e);
    });
    const what = `bundle: the decision ${JSON.stringify(path)}`;
    return async (input, data, deadline) => answer(decisionValue(compiled, await compiled.run(input, data, deadline), what), compiled.toJSON);
  };
}

async function planEvaluators(plan: unknown): Promise<{ compile: (path: string) => Promise<Evaluator>; has: (path: string) => boolean }> {
  const compiler = await import("../../compiler/index.js");
  const prepared = await compiler.compilePlan(plan).catch((e: unknown) => {
    throw wrapCompileError("bundle: /plan.json does not compile", e);
  });
  const { toJSON } = await import("../value/json.js");
  const has = (path: string): boolean => prepared.entrypoints.includes(path);
  const compile = async (path: string): Promise<Evaluator> => {
    if (!prepared.entrypoints.includes(path)) {
      throw noPlanEntrypointError(path, prepared.entrypoints);
    }
    return async (input, data, deadline) => {
      let rows: Bindings[];
      try {
        rows = await prepared.evaluate({ entrypoint: path, input, data, ...deadline });
      } catch (e) {
        throw asRegoError(e);
      }
      const row = rows[0];
      return answer(row === undefined ? undefined : row["result"], toJSON as (v: unknown) => JSONValue);
    };
  };
  return { compile, has };
}

function answer(value: unknown, toJSON: (v: unknown) => JSONValue): { result?: JSONValue } {
  return value === undefined ? {} : { result: toJSON(value) };
}

/** Every module's package must lie under a manifest root (OPA checks this at activation). */
export async function checkPackages(modules: Record<string, string>, roots: readonly string[], v0 = false): Promise<void> {
  const { parseModuleResult } = await import("../../compiler/syntax/index.js");
  for (const [file, source] of Object.entries(modules)) {
    const { module, errors } = parseModuleResult(source, { file, regoVersion: v0 ? "v0" : "v1" });
    if (!module) throw wrapCompileError("bundle: the policy does not compile", errors[0]);
    const path = module.package.path.slice(1).map((t) => (t.type === "string" ? t.value : ""));
    if (!underRoots(roots, path)) {
      throw moduleOutsideRootsError(roots, path, file);
    }
  }
}
