// The compiled program partial evaluation runs on: the modules through the compiler stages, the
// query through the query stages, both cached (a program by its sources, a query by its text), so
// that a warm partial evaluation only evaluates. The unknowns and disableInlining refs are parsed
// here too.
import type { Body, Term } from "../ast/nodes.js";
import { parseModules } from "../compile.js";
import type { CompileContext } from "../passes/context.js";
import { compileModules, compileQuery, throwIfFailed } from "../passes/runner.js";
import { parseQueryResult } from "../syntax/index.js";
import { RegoError, RegoErrors } from "../../runtime/errors.js";
import { badUnknownError, emptyQueryError } from "./errors.js";

export interface Program {
  ctx: CompileContext;
  queries: Map<string, Body>;
}

const MAX_PROGRAMS = 16;
const MAX_QUERIES = 256;
/** A cache (module state on purpose): the last few programs compiled, by their sources' text. */
const programs = new Map<string, Program>();
/** A cache (module state on purpose), beside `programs`: the same sources object (an Engine's frozen modules) is looked up without reading its text. */
const bySources = new WeakMap<object, { v0: boolean; program: Program }>();

/** The modules compiled (errors thrown as RegoErrors); the last few programs are kept. */
export function compiledProgram(modules: Readonly<Record<string, string>>, v0: boolean): Program {
  const same = Object.isFrozen(modules) ? bySources.get(modules) : undefined;
  if (same && same.v0 === v0) return same.program;
  const key = JSON.stringify([v0, Object.keys(modules).sort().map((f) => [f, modules[f]])]);
  let p = programs.get(key);
  if (p) {
    // most recently used last
    programs.delete(key);
    programs.set(key, p);
    return p;
  }
  const ctx = compileModules(parseModules(modules, v0));
  throwIfFailed(ctx);
  p = { ctx, queries: new Map() };
  if (programs.size >= MAX_PROGRAMS) programs.delete(programs.keys().next().value!);
  programs.set(key, p);
  if (Object.isFrozen(modules)) bySources.set(modules, { v0, program: p });
  return p;
}

/** The query compiled against the program (errors thrown as RegoErrors). */
export function compiledQuery(p: Program, text: string, v0: boolean): Body {
  if (typeof text !== "string" || text.trim() === "") throw emptyQueryError();
  let body = p.queries.get(text);
  if (body) return body;
  const r = parseQueryResult(text, { file: "", regoVersion: v0 ? "v0" : "v1" });
  if (!r.body) throw new RegoErrors(r.errors);
  compileQuery(p.ctx, r.body);
  throwIfFailed(p.ctx);
  body = p.ctx.query!.body;
  if (p.queries.size >= MAX_QUERIES) p.queries.clear();
  p.queries.set(text, body);
  return body;
}

/** A cache (module state on purpose): the unknowns and disabled refs parsed, by their text. */
const parsedRefs = new Map<string, Term[]>();
const MAX_REFS = 1024;

/** Each text as a ground ref rooted at input or data (`input.fruits`, `data.x["a b"]`). */
export function parseUnknowns(texts: readonly unknown[], what: string): Term[][] {
  return texts.map((text) => {
    const known = typeof text === "string" ? parsedRefs.get(text) : undefined;
    if (known) return known;
    const bad = (why: string): RegoError => badUnknownError(what, text, why);
    if (typeof text !== "string") throw bad("is not a string");
    const r = parseQueryResult(text, { file: "", regoVersion: "v1" });
    const e = r.body?.length === 1 ? r.body[0]! : undefined;
    const t = e && !Array.isArray(e.terms) && !e.negated && e.with.length === 0 ? (e.terms as Term) : undefined;
    if (!t || t.type !== "ref") throw bad("is not a ref");
    const [head, ...rest] = t.value;
    if (head?.type !== "var" || (head.value !== "input" && head.value !== "data")) throw bad("is not a ref of input or data");
    if (rest.some((k) => k.type !== "string")) throw bad("must have constant string keys");
    if (parsedRefs.size >= MAX_REFS) parsedRefs.clear();
    parsedRefs.set(text, t.value);
    return t.value;
  });
}
