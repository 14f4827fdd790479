// IR plan → one TypeScript module: decode and validate the plan, analyse it (call graph, kinds,
// entrypoint shapes, input/data types — from JSON Schemas where the frontend gives them, else from
// the refs the plans read), emit every reachable func and every selected plan, and lay
// the module out (module.ts).
import { RegoError } from "../../runtime/errors.js";
import type { Plan, Policy } from "../ir/types.js";
import { decodeValidPolicy } from "../ir/prepare.js";
import { invalid } from "../ir/decode.js";
import { optimize } from "../optimize/index.js";
import { analyseCalls } from "./analysis/calls.js";
import { detectDirect, type DirectEntry } from "./analysis/entry.js";
import { analyseDefinedness, analyseFuncs } from "./analysis/kinds.js";
import { emptyShape, graftSchema, saysNothing, ShapeAnalysis, type Shape, type Shapes } from "./analysis/shapes.js";
import { _, comment, join, lineComment, lit, type Code, type Name } from "./code.js";
import { dispatcher } from "./emit/calls.js";
import { ModuleEmitter, type LocalNames } from "./emit/context.js";
import { emitFunc, emitPlan, type EntryParts } from "./emit/functions.js";
import { shapeType, unknownPaths } from "./emit/types.js";
import { LAYOUTS, type ModuleParts } from "./module.js";
import { RT, RT_TYPES, type RuntimeName } from "./names.js";
import { groupSchemaTypes, type EntrypointSchemaTypes, type SchemaTypes } from "./schemaTypes.js";

export interface GenerateOptions {
  /** Generate only this entrypoint (plan name, e.g. "authz/allow"); default: every plan. */
  entrypoint?: string;
  /** Input/data types from JSON Schemas, by entrypoint (what `planRegoDetailed` returns as
   * `schemaTypes`): they replace the types derived from the refs the plan reads. */
  schemaTypes?: SchemaTypes;
  /** "typescript" (the default): the typed module a user reads, commits and type-checks.
   * "javascript": the same code without its types, for `loadModule` to import directly — no
   * ts-morph layout and no type-stripping pass.
   * "function": that JavaScript as the body of a function (parameters: `runtimeImports`; it returns
   * the exports): what a compile to a live module hands `loadModule`, which loads it without
   * Node's module loader. */
  language?: "typescript" | "javascript" | "function";
  /** false: emit the plan as it is, without the optimiser's passes (compiler/optimize). */
  optimize?: boolean;
  /** The Rego variable behind each local (what `planRegoDetailed` returns as `localNames`): the
   * generated code names its locals after them. */
  localNames?: LocalNames;
  /** Each statement whose source row differs from the one before it calls the runtime's
   * `cover(file, row)` (`regoc test --coverage`; with `optimize: false`, every statement is kept). */
  coverage?: boolean;
  /** The module's header comment, a line each (default: one saying regoc generated it). */
  header?: readonly string[];
  /** Custom builtins that return a Promise, besides the registered ones (an Engine's own
   * `builtins`): plans that call them get async entrypoints. */
  asyncBuiltins?: readonly string[];
}

export interface GeneratedEntrypoint {
  /** The plan name, e.g. "authz/allow": the key of the module's `entrypoints` table. */
  name: string;
  /** The exported function, e.g. "authzAllow". */
  exportName: string;
  kind: "value" | "resultset";
  /** The binding a "value" entrypoint returns (e.g. "result"). */
  binding?: string;
  async: boolean;
}

export interface GeneratedModule {
  code: string;
  /** The language of `code` (GenerateOptions.language). */
  language: "typescript" | "javascript" | "function";
  /** The runtime's value names the code uses (a "function" body's parameters). */
  runtimeImports: string[];
  /** Where each function starts in `code` (for `loadModule`: a large module is transformed in
   * pieces cut there). */
  functionStarts: number[];
  entrypoints: GeneratedEntrypoint[];
  /** Builtins the module calls (each must be in the registry when it is loaded). */
  builtins: string[];
}

/** Decodes and validates a plan (JSON text or parsed JSON). */
export function preparePolicy(plan: unknown): Policy {
  return decodeValidPolicy(plan);
}

export function selectPlans(policy: Policy, entrypoint: string | undefined): Plan[] {
  const plans = policy.plans.plans;
  if (plans.length === 0) throw invalid("plans.plans", "the plan has no entrypoints");
  if (entrypoint === undefined) return plans;
  const p = plans.find((x) => x.name === entrypoint);
  if (!p) {
    throw invalid("", `no entrypoint ${JSON.stringify(entrypoint)} in the plan (entrypoints: ${plans.map((x) => JSON.stringify(x.name)).join(", ")})`);
  }
  return [p];
}

/** The package part of an entrypoint name ("authz/allow" → "authz"), naming its input/data types. */
function typeGroup(name: string): string {
  const i = name.lastIndexOf("/");
  return i > 0 ? name.slice(0, i) : name;
}

/** Puts a group's schema types into its shapes (a shorter data path first: it covers longer ones). */
function applySchemaTypes(shapes: Shapes, types: EntrypointSchemaTypes): void {
  if (types.input) graftSchema(shapes.input, [], types.input);
  const data = [...(types.data ?? [])].sort((a, b) => a.path.length - b.path.length);
  for (const d of data) graftSchema(shapes.data, d.path, d.type);
}

/** Whether a schema types a node or a node below it. */
function hasSchema(shape: Shape): boolean {
  return shape.schema !== undefined || [...shape.keys.values()].some(hasSchema);
}

/** How many of the paths a schema would type the doc comment names. */
const DOC_PATHS = 6;

/** The doc comment of an Input/Data type: where its type comes from, and where a JSON Schema
 * would tighten it. */
function typeDoc(doc: "input" | "data", group: string, shape: Shape): string {
  if (hasSchema(shape)) return `${doc} of ${group}, typed by its JSON schema`;
  if (saysNothing(shape)) return `${doc} of ${group}: the policy's uses do not type it`;
  const open = unknownPaths(shape);
  const head = `${doc} read by ${group}, typed from how the policy uses it`;
  if (open.length === 0) return `${head} (a JSON schema would make it exact)`;
  const named = open.slice(0, DOC_PATHS).join(", ") + (open.length > DOC_PATHS ? ` and ${open.length - DOC_PATHS} more` : "");
  return `${head}; a JSON schema would type what it leaves unknown: ${named}`;
}

/** The funcs called (CallStmt) before the value of each direct-value entrypoint, at the top level
 * of its last block: the calls whose definedness decides whether it may return undefined. */
function directCallees(directs: ReadonlyArray<DirectEntry | undefined>): Set<string> {
  const names = new Set<string>();
  for (const d of directs) for (const s of d?.topLevelPrefix ?? []) if (s.type === "CallStmt") names.add(s.stmt.func);
  return names;
}

const DEFAULT_HEADER = ["Generated by regoc from an OPA IR plan: do not edit."];

export function generateModule(decoded: Policy, options: GenerateOptions = {}): GeneratedModule {
  const { policy, localNames } =
    options.optimize === false ? { policy: decoded, localNames: options.localNames } : optimize(decoded, options.localNames ? { localNames: options.localNames } : {});
  const plans = selectPlans(policy, options.entrypoint);
  const calls = analyseCalls(policy, plans, options.asyncBuiltins);
  const language = options.language ?? "typescript";
  if (!Object.hasOwn(LAYOUTS, language)) {
    throw unknownLanguageError(language);
  }
  const typed = language === "typescript";
  const directs = plans.map((p) => detectDirect(policy, p));
  // Without types, the only fact asked is whether the funcs a direct-value entrypoint calls before
  // its value are defined: only those (and what they depend on) are analysed.
  const facts = typed ? analyseFuncs(policy, calls.funcs) : analyseDefinedness(policy, calls, directCallees(directs));
  const mod = new ModuleEmitter(policy, calls, facts, typed, localNames);
  mod.coverage = options.coverage === true;
  mod.importsBuiltins = language !== "function";

  // Exported names first, so entrypoints get the plain names.
  const entryNames = plans.map((p) => mod.scope.ident(p.name));
  const groups = new Map<string, { input: Name; data: Name; shapes: Shapes; plans: Plan[] }>();
  for (const p of plans) {
    const g = typeGroup(p.name);
    let grp = groups.get(g);
    if (!grp) {
      grp = { input: mod.scope.ident(`${g} input`, "pascal"), data: mod.scope.ident(`${g} data`, "pascal"), shapes: { input: emptyShape(), data: emptyShape() }, plans: [] };
      groups.set(g, grp);
    }
    grp.plans.push(p);
  }
  // The input/data types (only a typed module has them).
  const shapes = typed ? new ShapeAnalysis(policy, plans, calls.funcs, facts) : undefined;
  for (const grp of shapes ? groups.values() : []) {
    grp.shapes = shapes!.groupShapes(grp.plans, calls.reach(grp.plans));
    applySchemaTypes(grp.shapes, groupSchemaTypes(options.schemaTypes, grp.plans.map((p) => p.name)));
  }
  for (const f of calls.funcs) mod.funcName(f);

  // Each function goes to the layout as soon as it is emitted (module.ts's ModuleLayout): the
  // entrypoints, then the funcs their code calls, then the funcs those call, ... — a reader meets
  // a function after its first caller, and a func no emitted code calls is left out.
  const layout = LAYOUTS[language]();
  const entries: EntryParts[] = plans.map((p, i) => {
    const grp = groups.get(typeGroup(p.name))!;
    const e = emitPlan(mod, p, entryNames[i]!, { input: grp.input, data: grp.data }, directs[i]);
    layout.add(e);
    return e;
  });
  for (let i = 0; i < mod.calledFuncs.length; i++) {
    layout.add(emitFunc(mod, policy.funcs.funcs[mod.calledFuncs[i]!]!));
  }
  if (mod.dispatchCalled) {
    const targets = calls.funcs.filter((f) => calls.dynamicTargets.has(f.name));
    const d = dispatcher(mod, targets);
    layout.add({
      name: mod.fixed.dispatch,
      doc: comment("CallDynamicStmt: the func at a data path"),
      params: [
        { name: mod.fixed.state, type: mod.rtType("EvalState") },
        { name: mod.fixed.key, type: _`string | undefined` },
        { name: mod.fixed.input, type: mod.fixed.V },
        { name: mod.fixed.data, type: mod.fixed.V },
      ],
      returnType: d.returnType,
      body: d.body,
      isAsync: d.isAsync,
      isExported: false,
    });
  }

  const table: Code[] = entries.map((e, i) => {
    const fields = [_`kind: ${e.kind}`, ...(e.binding !== undefined ? [_`binding: ${e.binding}`] : []), _`async: ${e.isAsync}`, _`fn: ${e.name}`];
    return _`[${lit(plans[i]!.name)}]: { ${join(fields)} },`;
  });
  const tableInit = _`{\n${join(table.map((t) => _`  ${t}`), _`\n`)}\n}`;
  mod.rt("EntrypointTable");

  const typeAliases: ModuleParts["typeAliases"] = [{ name: mod.fixed.V, type: mod.rt("MaybeValue"), exported: false, doc: comment("a value, or undefined") }];
  let collection: Name | undefined;
  const collectionName = () => (collection ??= mod.scope.ident("collection", "pascal"));
  for (const [g, grp] of typed ? groups : []) {
    typeAliases.push({ name: grp.input, type: shapeType(grp.shapes.input, collectionName), exported: true, doc: comment(typeDoc("input", g, grp.shapes.input)) });
    typeAliases.push({ name: grp.data, type: shapeType(grp.shapes.data, collectionName), exported: true, doc: comment(typeDoc("data", g, grp.shapes.data)) });
  }
  if (collection) {
    const doc = comment("a collection the policy scans or indexes: an array of T, or an object whose values are T");
    typeAliases.splice(1, 0, { name: collection, params: "<T>", type: _`T[] | { [key: string]: T }`, exported: true, doc });
  }
  const imports = [...new Set([...mod.used, ...mod.usedAsType])]
    .sort()
    .map((n: RuntimeName) => ({ name: RT[n], typeOnly: RT_TYPES.has(n) || !mod.used.has(n) }));
  const { code, functionStarts } = layout.build({
    header: (options.header ?? DEFAULT_HEADER).map(lineComment),
    imports,
    builtinImports: mod.builtinImports(),
    typeAliases,
    consts: mod.constants(),
    tail: [{ name: mod.fixed.entrypoints, type: mod.rt("EntrypointTable"), init: tableInit, exported: true, doc: comment("entrypoint name -> function") }],
  });
  return {
    code,
    language,
    runtimeImports: imports.filter((i) => !i.typeOnly).map((i) => i.name),
    functionStarts,
    entrypoints: entries.map((e, i) => ({
      name: plans[i]!.name,
      exportName: e.name.text,
      kind: e.kind,
      ...(e.binding !== undefined ? { binding: e.binding } : {}),
      async: e.isAsync,
    })),
    builtins: [...calls.builtins].sort(),
  };
}

function unknownLanguageError(language: unknown): RegoError {
  return new RegoError("rego_compile_error", `codegen: language must be "typescript", "javascript" or "function", not ${JSON.stringify(language)}`);
}
