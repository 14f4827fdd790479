// The Rego frontend's public entry: Rego source → checked, rewritten program (compiler/passes) →
// IR plan in OPA's JSON format (compiler/planner) → the code generator (compilePlan).
//   planRego({modules, entrypoints | query})    → plan JSON
//   compileRego({modules, entrypoints | query}) → PreparedQuery
// Entrypoints are rule paths (`authz/allow`, planned as the query `result = data.authz.allow`);
// a query string (`data.test.p = x`) is planned as a plan named "query" returning its bindings.
import type { Body, Module, Ref, Rule, Term } from "./ast/nodes.js";
import { agreedTypes, type EntrypointSchemaTypes, type SchemaTypes, type TypeDescription } from "./codegen/schemaTypes.js";
import type { Policy } from "./ir/types.js";
import type { LocalNames } from "./codegen/emit/context.js";
import { RegoError, RegoErrors, sortErrors, assertNever } from "../runtime/errors.js";
import { numberFromText } from "../runtime/value/number.js";
import { objectInsert } from "../runtime/value/object.js";
import { RegoSet } from "../runtime/value/set.js";
import { newPlainObject, type Value } from "../runtime/value/value.js";
import type { Capabilities } from "./builtins/decls.js";
import type { CompileContext } from "./passes/context.js";
import { isStackOverflow } from "../runtime/errors.js";
import {
  emptyQueryError,
  entrypointNotRuleError,
  functionEntrypointError,
  internalCompilerError,
  invalidEntrypointError,
  invalidNumberError,
  notConstantError,
  nothingToPlanError,
  tooComplexError,
} from "./errors.js";
import { requiredKeys } from "./passes/types/schema.js";
import { SchemaScopes } from "./passes/types/schemaScopes.js";
import type { MaybeType } from "./passes/types/types.js";
import { compileModules, compileQuery, throwIfFailed } from "./passes/runner.js";
import { negationWarnings } from "./passes/checkNegation.js";
import { planProgram, type QuerySet } from "./planner/planner.js";
import { parseModuleResult, parseQueryResult } from "./syntax/index.js";
import type { PreparedQuery } from "../runtime/eval/prepared.js";

export interface CompileRegoOptions {
  /** Rego sources by file name. */
  modules: Readonly<Record<string, string>>;
  /** A query to plan (its plan is named `queryName`, default "query"). */
  query?: string;
  queryName?: string;
  /** Rule paths to plan, e.g. `authz/allow` (or `data.authz.allow`). */
  entrypoints?: readonly string[];
  /** Parse the modules (and the query) as Rego v0. */
  v0Compatible?: boolean;
  /** Keep `print(...)` calls, erased by default. `true`: compileRego's query writes them to
   * stderr (unless `evaluate` is given its own `print` hook); a function: the default hook. */
  print?: boolean | ((message: string) => void);
  /** OPA's strict mode. */
  strict?: boolean;
  capabilities?: Capabilities;
  /** JSON Schemas for the type checker (parsed JSON or JSON text), keyed as OPA's schema set:
   * `schema` is the input schema, applied to every rule and query; `schema.<name>` (e.g.
   * `schema.input`, `schema.k8s.pod`) are what METADATA `schemas:` entries name
   * (`- input: schema.input`, `- data.roles: schema.roles`). Entries naming a schema are
   * ignored when this is not given, as in OPA; inline schemas always apply. */
  schemas?: Readonly<Record<string, unknown>>;
  /** For `regoc eval`: the value of each query expression is added to every result row under
   * the key `$expr<i>` (i = the expression's index). */
  captureExpressions?: boolean;
}

export interface PlannedRego {
  plan: Policy;
  /** The plan names, in order (entrypoints first, then the query). */
  names: string[];
  /** With captureExpressions: expression index → result key. */
  expressionKeys: Map<number, string>;
  /** Entrypoint → the input/data types JSON Schemas give its rules (entrypoints without any are
   * absent): for the code generator (`generateTypeScript(plan, { schemaTypes })`). */
  schemaTypes: SchemaTypes;
  /** The Rego variable behind each local of each func and plan, where there is one: for the code
   * generator (`generateTypeScript(plan, { localNames })`), which names the locals after them. */
  localNames: LocalNames;
}

/** Parses every module; throws all parse errors at once. */
export function parseModules(modules: Readonly<Record<string, string>>, v0: boolean): Module[] {
  const out: Module[] = [];
  const errors: RegoError[] = [];
  for (const file of Object.keys(modules).sort()) {
    const r = parseModuleResult(modules[file]!, { file, regoVersion: v0 ? "v0" : "v1" });
    if (r.module) out.push(r.module);
    errors.push(...r.errors);
  }
  if (errors.length > 0) throw new RegoErrors(errors);
  return out;
}

export interface CheckRegoOptions {
  /** Rego sources by file name. */
  modules: Readonly<Record<string, string>>;
  v0Compatible?: boolean;
  /** OPA's strict mode; regoc's warnings are errors too. */
  strict?: boolean;
  capabilities?: Capabilities;
  /** As CompileRegoOptions.schemas. */
  schemas?: Readonly<Record<string, unknown>>;
  /** Errors reported at most (OPA's limit: 10; 0: no limit). */
  maxErrors?: number;
}

export interface CheckRegoResult {
  /** Parse and compile errors (with `strict`, the warnings as well), sorted by location. */
  errors: RegoError[];
  /** regoc's warnings (`rego_negation_warning`: checkNegation.ts), sorted; only for modules that
   * compile, and empty with `strict` (they are errors then). */
  warnings: RegoError[];
}

/** Rego source → its compile errors and regoc's warnings (what `regoc check` reports). */
export function checkRego(options: CheckRegoOptions): CheckRegoResult {
  const { errors, warnings } = checkRegoProgram(options);
  return { errors, warnings };
}

/** A checked program: its errors and warnings and, when there are no errors, its compiled
 * modules, against which `plan` plans any number of entrypoint sets (`regoc build`: one per
 * package) without compiling again. */
export interface CheckedRego extends CheckRegoResult {
  /** The compiled modules, sorted by file (none when there are errors). */
  modules: readonly Module[];
  plan(entrypoints: readonly string[]): PlannedRego;
}

export function checkRegoProgram(options: CheckRegoOptions): CheckedRego {
  return asRegoError("the compiler", () => {
    const failed = (errors: RegoError[], warnings: RegoError[] = []): CheckedRego => ({
      errors,
      warnings,
      modules: [],
      plan: () => {
        throw new RegoErrors(errors);
      },
    });
    let modules: Module[];
    try {
      modules = parseModules(options.modules, options.v0Compatible === true);
    } catch (e) {
      if (e instanceof RegoErrors) return failed([...e.errors]);
      throw e;
    }
    const compileOptions: Parameters<typeof compileModules>[1] = { strict: options.strict === true, maxErrors: options.maxErrors ?? 10 };
    if (options.capabilities) compileOptions.capabilities = options.capabilities;
    if (options.schemas) compileOptions.schemas = options.schemas;
    const ctx = compileModules(modules, compileOptions);
    const warnings = negationWarnings(ctx);
    const errors = sortErrors(options.strict ? [...ctx.errors, ...warnings] : ctx.errors);
    const shown = options.strict ? [] : sortErrors(warnings);
    if (errors.length > 0) return failed(errors, shown);
    return {
      errors,
      warnings: shown,
      modules: ctx.modules,
      plan: (entrypoints) => asRegoError("the compiler", () => planCompiled(ctx, { modules: options.modules, entrypoints: [...entrypoints] })),
    };
  });
}

/** An entrypoint (`authz/allow` or `data.authz.allow`) as its keys below data. */
export function entrypointRef(e: string): string[] {
  const path = e.startsWith("data.") ? e.slice(5).split(".") : e.replace(/^\/+/, "").split("/");
  if (path.some((s) => s === "")) throw invalidEntrypointError(e);
  return path;
}

function quoteSegment(s: string): string {
  return /^[a-zA-Z_][a-zA-Z0-9_]*$/.test(s) ? `.${s}` : `[${JSON.stringify(s)}]`;
}

function parseQueryText(text: string, v0: boolean, file = ""): Body {
  const r = parseQueryResult(text, { file, regoVersion: v0 ? "v0" : "v1" });
  if (!r.body) throw new RegoErrors(r.errors);
  if (r.body.length === 0) throw emptyQueryError();
  return r.body;
}

/** Compiles one query against the compiled modules (on a copy of the context's query state). */
function compileQuerySet(ctx: CompileContext, name: string, body: Body, captures: Map<string, string> | undefined): QuerySet {
  compileQuery(ctx, body);
  throwIfFailed(ctx);
  const q = ctx.query!;
  const qs: QuerySet = { name, query: q.body, rewritten: q.rewritten };
  if (captures) qs.captures = captures;
  return qs;
}

export { INTERNAL_COMPILER_ERROR } from "./errors.js";

/** Rego source → IR plan (OPA's plan JSON). Throws RegoErrors on parse and compile errors. */
export function planRegoDetailed(options: CompileRegoOptions): PlannedRego {
  return asRegoError("the compiler", () => planRegoUnguarded(options));
}

/** Runs `f`; an exception that is not a RegoError (a bug, or the JS stack running out where no
 * limit caught it first) becomes one, so callers see only RegoErrors. */
function asRegoError<T>(what: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw toRegoError(what, e);
  }
}

function toRegoError(what: string, e: unknown): RegoError {
  if (e instanceof RegoError) return e;
  if (isStackOverflow(e)) return tooComplexError(what, undefined, e);
  return internalCompilerError(what, e);
}

function planRegoUnguarded(options: CompileRegoOptions): PlannedRego {
  const v0 = options.v0Compatible === true;
  const modules = parseModules(options.modules, v0);
  const compileOptions: Parameters<typeof compileModules>[1] = { enablePrint: options.print !== undefined && options.print !== false, strict: options.strict === true };
  if (options.capabilities) compileOptions.capabilities = options.capabilities;
  if (options.schemas) compileOptions.schemas = options.schemas;
  const ctx = compileModules(modules, compileOptions);
  throwIfFailed(ctx);
  return planCompiled(ctx, options);
}

/** The plan of the options' entrypoints and query against compiled modules. */
function planCompiled(ctx: CompileContext, options: CompileRegoOptions): PlannedRego {
  const v0 = options.v0Compatible === true;
  const queries: QuerySet[] = [];
  const scopes = SchemaScopes.of(ctx);
  const schemaTypes = new Map<string, EntrypointSchemaTypes>();
  for (const e of options.entrypoints ?? []) {
    const path = entrypointRef(e);
    const name = path.join("/");
    const node = ctx.ruleTree!.lookup([{ type: "var", value: "data" } as Term, ...path.map((s) => ({ type: "string", value: s }) as Term)]);
    if (!node) throw entrypointNotRuleError(name);
    if (node.values.some((r) => (r.head.args?.length ?? 0) > 0)) {
      throw functionEntrypointError(path);
    }
    const types = scopes && rulesSchemaTypes(ctx, scopes, node.values);
    if (types && (types.input || types.data)) schemaTypes.set(name, types);
    const text = `result = data${path.map(quoteSegment).join("")}`;
    queries.push(compileQuerySet(ctx, name, parseQueryText(text, false), undefined));
  }
  const expressionKeys = new Map<number, string>();
  if (options.query !== undefined) {
    const body = parseQueryText(options.query, v0);
    const captures = options.captureExpressions ? captureExpressions(ctx, body, expressionKeys) : undefined;
    queries.push(compileQuerySet(ctx, options.queryName ?? "query", body, captures));
  }
  if (queries.length === 0) throw nothingToPlanError();
  const sourceSize = Object.values(options.modules).reduce((n, text) => n + text.length, 0) + (options.query?.length ?? 0);
  const { plan, localNames } = planProgram({
    modules: ctx.modules,
    ruleRef: (r) => ctx.ruleRef(r),
    ruleTree: ctx.ruleTree!,
    builtins: ctx.builtins,
    queries,
    sourceSize,
    rewrittenVars: ctx.rewrittenVars,
  });
  return { plan, names: queries.map((q) => q.name), expressionKeys, schemaTypes, localNames };
}

/**
 * The schema types of an entrypoint's rules: what OPA's annotation scoping gives each rule of
 * the name, where they all agree (rule-scope annotations may differ between rules of one name;
 * then that part is left to the refs). A package (no rules of its own) gets none.
 */
function rulesSchemaTypes(ctx: CompileContext, scopes: SchemaScopes, rules: readonly Rule[]): EntrypointSchemaTypes | undefined {
  if (rules.length === 0) return undefined;
  return agreedTypes(
    rules.map((rule) => {
      const docs = scopes.documentTypes(rule, ctx.ruleModule.get(rule)!);
      const out: EntrypointSchemaTypes = {};
      const input = docs.input && describeType(docs.input);
      if (input) out.input = input;
      const data = docs.data.flatMap((d) => {
        const path = constantPath(d.path);
        const type = describeType(d.type);
        return path && type ? [{ path, type }] : [];
      });
      if (data.length > 0) out.data = data;
      return out;
    }),
  );
}

/** A `data.a.b` ref's keys below data, when they are all strings. */
function constantPath(ref: Ref): string[] | undefined {
  const keys = ref.slice(1);
  return keys.every((k) => k.type === "string") ? keys.map((k) => k.value as string) : undefined;
}

/** Type descriptions larger than this (a schema's shared definitions are written out at every
 * use) are left out: the refs' types stand instead of a huge one. */
const MAX_DESCRIPTION_NODES = 5000;

/** The checker's type of a document as the code generator's description (undefined: too big).
 * Object properties are optional unless the schema requires them; a schema's recursive
 * reference is `any` in the checker's types, so `unknown` here. */
function describeType(t: MaybeType): TypeDescription | undefined {
  let left = MAX_DESCRIPTION_NODES;
  const describe = (t: MaybeType): TypeDescription => {
    if (--left < 0 || !t) return { kind: "unknown" };
    switch (t.kind) {
      case "any":
        return t.of.length === 0 ? { kind: "unknown" } : { kind: "union", of: t.of.map(describe) };
      case "null":
      case "boolean":
      case "number":
      case "string":
        return { kind: t.kind };
      case "array":
        return t.dynamic ? { kind: "array", items: t.static.map(describe), rest: describe(t.dynamic) } : { kind: "array", items: t.static.map(describe) };
      case "object": {
        if (!t.static.every((p) => typeof p.key === "string")) return { kind: "unknown" };
        const required = requiredKeys(t);
        const properties = t.static.map((p) => ({ key: p.key as string, type: describe(p.value), optional: !required.has(p.key as string) }));
        return t.dynamic ? { kind: "object", properties, rest: describe(t.dynamic.value) } : { kind: "object", properties };
      }
      default:
        // sets and functions: not JSON, no schema makes them
        return { kind: "unknown" };
    }
  };
  const d = describe(t);
  return left < 0 ? undefined : d;
}

export function planRego(options: CompileRegoOptions): Policy {
  return planRegoDetailed(options).plan;
}

/** Rego source → a prepared query (the first plan: the first entrypoint, else the query). */
export async function compileRego(options: CompileRegoOptions): Promise<PreparedQuery> {
  const { plan, names } = planRegoDetailed(options);
  const { compilePlan } = await import("./index.js");
  let prepared: PreparedQuery;
  try {
    prepared = await compilePlan(plan, { entrypoint: names[0]! });
  } catch (e) {
    throw toRegoError("the code generator", e);
  }
  if (options.print === undefined || options.print === false) return prepared;
  const hook = typeof options.print === "function" ? options.print : (m: string): void => void process.stderr.write(`${m}\n`);
  const evaluate = prepared.evaluate.bind(prepared);
  const evaluateSync = prepared.evaluateSync.bind(prepared);
  prepared.evaluate = (o = {}) => evaluate({ print: hook, ...o });
  prepared.evaluateSync = (o = {}) => evaluateSync({ print: hook, ...o });
  return prepared;
}

/** OPA's rewriteQueryToCaptureValue: a term expression `t` becomes `t = $exprN` and a call whose
 * result is not captured gets an output `$exprN`; with more than one expression the captured
 * value must also be true (`$exprN` is appended as a condition). */
function captureExpressions(ctx: CompileContext, body: Body, keys: Map<number, string>): Map<string, string> {
  const captures = new Map<string, string>();
  const iteration = body.some((e) => hasIteration(e));
  const check = iteration || body.length > 1;
  const extra: Body = [];
  body.forEach((e, i) => {
    if (e.negated) return;
    const ts = e.terms;
    const loc = e.location;
    const v = `__localcapture${i}__`;
    const vt: Term = { type: "var", value: v, location: loc };
    if (Array.isArray(ts)) {
      const op = ts[0]!;
      if (op.type !== "ref") return;
      const name = op.value.map((t) => (t as { value: string }).value).join(".");
      if (name === "eq" || name === "assign") return;
      if (ctx.getArity(op.value) !== ts.length - 1) return;
      ts.push(vt);
    } else if (ts.type === "some" || ts.type === "every" || ts.type === "and" || ts.type === "or" || ts.type === "not") {
      return;
    } else {
      e.terms = [{ type: "ref", value: [{ type: "var", value: "eq", location: loc }], location: loc }, ts as Term, vt];
    }
    captures.set(v, `$expr${i}`);
    keys.set(i, `$expr${i}`);
    if (check) extra.push({ type: "expr", index: body.length + extra.length, terms: { ...vt }, negated: false, with: [], generated: true, location: loc });
  });
  body.push(...extra);
  return captures;
}

function hasIteration(e: Body[number]): boolean {
  let found = false;
  const visit = (t: Term): void => {
    if (found) return;
    if (t.type === "ref") {
      if (t.value.slice(1).some((x) => x.type === "var")) found = true;
      t.value.forEach(visit);
    } else if (t.type === "array" || t.type === "set" || t.type === "call") t.value.forEach(visit);
    else if (t.type === "object") for (const [k, v] of t.value) (visit(k), visit(v));
  };
  const ts = e.terms;
  if (Array.isArray(ts)) ts.forEach(visit);
  else if (ts.type !== "some" && ts.type !== "every" && ts.type !== "and" && ts.type !== "or" && ts.type !== "not") visit(ts as Term);
  return found;
}

/** A constant term (no vars, refs or comprehensions) as a runtime value. */
export function termToValue(t: Term): Value {
  switch (t.type) {
    case "null":
      return null;
    case "boolean":
    case "string":
      return t.value;
    case "number": {
      const n = numberFromText(t.value);
      if (n === undefined) throw invalidNumberError(t.value, t.location);
      return n;
    }
    case "array":
      return t.value.map(termToValue);
    case "set":
      return new RegoSet(t.value.map(termToValue));
    case "object": {
      let o: ReturnType<typeof objectInsert> = newPlainObject();
      for (const [k, v] of t.value) o = objectInsert(o, termToValue(k), termToValue(v));
      return o;
    }
    case "var":
    case "ref":
    case "arraycomprehension":
    case "setcomprehension":
    case "objectcomprehension":
    case "call":
    case "templatestring":
      throw notConstantError(t.type, t.location);
    default:
      assertNever(t);
  }
}
