// Runs the stage lists: each stage is timed (module stages one entry each, query stages summed
// by name), the run stops after the first stage that reports errors, and the error count is
// capped (OPA's limit of 10, then "error limit reached").
import type { Body, Module } from "../ast/nodes.js";
import { RegoError, RegoErrors } from "../../runtime/errors.js";
import { CompileContext, ErrorLimitReached, LocalVarGen, type CompileOptions } from "./context.js";
import { isStackOverflow } from "../../runtime/errors.js";
import { checkModuleLimits, checkQueryLimits, stackOverflowError } from "./limits.js";
import { queryStages, stages, type Stage } from "./stages.js";
import { varsOf } from "../ast/visit.js";

function runStages(ctx: CompileContext, list: readonly Stage[], upTo?: string): void {
  if (upTo !== undefined && !list.some((s) => s.name === upTo)) throw new Error(`unknown compiler stage ${upTo}`);
  const isQuery = list === queryStages;
  // one clock reading per stage: a stage's end is the next one's start
  let t0 = performance.now();
  for (const s of list) {
    try {
      s.run(ctx);
    } catch (e) {
      if (isStackOverflow(e)) {
        // a safety net: limits.ts turns away what is known to nest too deeply for the stages
        ctx.errors.push(stackOverflowError(`the compiler stage ${s.name}`, ctx.modules, isQuery ? ctx.query?.body : undefined));
        return;
      }
      if (!(e instanceof ErrorLimitReached)) throw e;
    }
    const t1 = performance.now();
    if (isQuery) ctx.queryTimings.set(s.name, (ctx.queryTimings.get(s.name) ?? 0) + (t1 - t0));
    else ctx.timings.push({ stage: s.name, ms: t1 - t0 });
    t0 = t1;
    if (ctx.failed() || s.name === upTo) return;
  }
}

/** Compiles modules; errors are left on the context (see `throwIfFailed`). */
export function compileModules(modules: Module[], options: CompileOptions = {}): CompileContext {
  const ctx = new CompileContext(modules, options);
  if (withinLimits(ctx, checkModuleLimits(modules))) runStages(ctx, stages);
  return ctx;
}

/** Records a limit error (limits.ts: shapes too deep for the stages' recursion); true if none. */
function withinLimits(ctx: CompileContext, err: RegoError | undefined): boolean {
  if (err) ctx.errors.push(err);
  return err === undefined;
}

/** Compiles modules, stopping after the named stage (for tests, like OPA's WithOnlyStagesUpTo). */
export function compileUpTo(stage: string, modules: Module[], options: CompileOptions = {}): CompileContext {
  const ctx = new CompileContext(modules, options);
  if (withinLimits(ctx, checkModuleLimits(modules))) runStages(ctx, stages, stage);
  return ctx;
}

export interface QueryContextOptions {
  pkg?: Module["package"]["path"];
  imports?: Module["imports"];
  upTo?: string;
}

/** Compiles a query against an already compiled module set (ctx.query receives the result). */
export function compileQuery(ctx: CompileContext, body: Body, options: QueryContextOptions = {}): CompileContext {
  // the limits first: even collecting the query's vars recurses over its terms
  const tooDeep = checkQueryLimits(body);
  const q: NonNullable<CompileContext["query"]> = { body, rewritten: new Map(), gen: new LocalVarGen(tooDeep ? new Set() : varsOf(body), "q") };
  if (options.pkg) q.pkg = options.pkg;
  if (options.imports) q.imports = options.imports;
  ctx.query = q;
  if (withinLimits(ctx, tooDeep)) runStages(ctx, queryStages, options.upTo);
  return ctx;
}

export function throwIfFailed(ctx: CompileContext): void {
  if (ctx.errors.length > 0) throw new RegoErrors([...ctx.errors]);
}
