// Runs the stage lists: each stage is timed, the run stops after the first stage that reports
// errors, and the error count is capped (OPA's limit of 10, then "error limit reached").
import type { Body, Module } from "../ast/nodes.js";
import { RegoErrors } from "../../runtime/errors.js";
import { CompileContext, ErrorLimitReached, LocalVarGen, type CompileOptions } from "./context.js";
import { queryStages, stages, type Stage } from "./stages.js";
import { varsOf } from "./visit.js";

function runStages(ctx: CompileContext, list: readonly Stage[], upTo?: string): void {
  if (upTo !== undefined && !list.some((s) => s.name === upTo)) throw new Error(`unknown compiler stage ${upTo}`);
  for (const s of list) {
    const t0 = performance.now();
    try {
      s.run(ctx);
    } catch (e) {
      if (!(e instanceof ErrorLimitReached)) throw e;
    }
    ctx.timings.push({ stage: s.name, ms: performance.now() - t0 });
    if (ctx.failed() || s.name === upTo) return;
  }
}

/** Compiles modules; errors are left on the context (see `throwIfFailed`). */
export function compileModules(modules: Module[], options: CompileOptions = {}): CompileContext {
  const ctx = new CompileContext(modules, options);
  runStages(ctx, stages);
  return ctx;
}

/** Compiles modules, stopping after the named stage (for tests, like OPA's WithOnlyStagesUpTo). */
export function compileUpTo(stage: string, modules: Module[], options: CompileOptions = {}): CompileContext {
  const ctx = new CompileContext(modules, options);
  runStages(ctx, stages, stage);
  return ctx;
}

export interface QueryContextOptions {
  pkg?: Module["package"]["path"];
  imports?: Module["imports"];
  upTo?: string;
}

/** Compiles a query against an already compiled module set (ctx.query receives the result). */
export function compileQuery(ctx: CompileContext, body: Body, options: QueryContextOptions = {}): CompileContext {
  const q: NonNullable<CompileContext["query"]> = { body, rewritten: new Map(), gen: new LocalVarGen(varsOf(body), "q") };
  if (options.pkg) q.pkg = options.pkg;
  if (options.imports) q.imports = options.imports;
  ctx.query = q;
  runStages(ctx, queryStages, options.upTo);
  return ctx;
}

export function throwIfFailed(ctx: CompileContext): void {
  if (ctx.errors.length > 0) throw new RegoErrors([...ctx.errors]);
}
