// The one builtin registry: every category file under runtime/builtins/ exports a BuiltinTable
// keyed by OPA's exact builtin name; this file lists the categories in one place, answers lookups,
// and owns the single invoke policy (strict errors vs undefined, the `name: ` prefix and location).
import { RegoError, type Location } from "../errors.js";
import { canonicalKey } from "../value/key.js";
import type { Value } from "../value/value.js";
import type { EvalContext } from "./context.js";
import { comparisonBuiltins } from "./comparison.js";
import { arithmeticBuiltins } from "./arithmetic.js";
import { bitsBuiltins } from "./bits.js";
import { aggregatesBuiltins } from "./aggregates.js";
import { setsBuiltins } from "./sets.js";
import { arraysBuiltins } from "./arrays.js";
import { objectsBuiltins } from "./objects.js";
import { typesBuiltins } from "./types.js";
import { castsBuiltins } from "./casts.js";
import { internalBuiltins } from "./internal.js";
import { graphsBuiltins } from "./graphs.js";
import { stringsBuiltins } from "./strings.js";
import { encodingBuiltins } from "./encoding.js";
import { jsonBuiltins } from "./json.js";
import { yamlBuiltins } from "./yaml.js";
import { unitsBuiltins } from "./units.js";
import { semverBuiltins } from "./semver.js";
import { uuidBuiltins } from "./uuid.js";
import { randBuiltins } from "./rand.js";
import { regexBuiltins } from "./regex.js";
import { globBuiltins } from "./glob.js";
import { templatesBuiltins } from "./templates.js";
import { timeBuiltins } from "./time.js";
import { cryptoBuiltins } from "./crypto.js";
import { jwtBuiltins } from "./jwt.js";
import { providersBuiltins } from "./providers.js";
import { netBuiltins } from "./net.js";
import { httpBuiltins } from "./http.js";
import { graphqlBuiltins } from "./graphql.js";
import { jsonschemaBuiltins } from "./jsonschema.js";
import { regoBuiltins } from "./rego.js";
import { opaBuiltins } from "./opa.js";

/** A builtin implementation: the context first, then the Rego arguments. Returns undefined for "no value". */
export type BuiltinFn = (ctx: EvalContext, ...args: Value[]) => Value | undefined;
export type AsyncBuiltinFn = (ctx: EvalContext, ...args: Value[]) => Promise<Value | undefined>;

export interface BuiltinDef {
  fn: BuiltinFn | AsyncBuiltinFn;
  /** Returns a Promise: plans that call it get an async entrypoint. */
  async?: boolean;
  /** One value per evaluation for the same arguments (time.now_ns, rand.intn, uuid.rfc4122, ...). */
  nondeterministic?: boolean;
}

export type BuiltinTable = Record<string, BuiltinDef>;

/** Where a builtin is called from: the generated code makes one per call site. */
export interface CallSite {
  name: string;
  location?: Location;
}

// Categories, in OPA's grouping. Each file exports one table; add new categories here.
const categories: BuiltinTable[] = [
  comparisonBuiltins,
  arithmeticBuiltins,
  bitsBuiltins,
  aggregatesBuiltins,
  setsBuiltins,
  arraysBuiltins,
  objectsBuiltins,
  typesBuiltins,
  castsBuiltins,
  internalBuiltins,
  graphsBuiltins,
  stringsBuiltins,
  encodingBuiltins,
  jsonBuiltins,
  yamlBuiltins,
  unitsBuiltins,
  semverBuiltins,
  uuidBuiltins,
  randBuiltins,
  regexBuiltins,
  globBuiltins,
  templatesBuiltins,
  timeBuiltins,
  cryptoBuiltins,
  jwtBuiltins,
  providersBuiltins,
  netBuiltins,
  httpBuiltins,
  graphqlBuiltins,
  jsonschemaBuiltins,
  regoBuiltins,
  opaBuiltins,
];

const registry = new Map<string, BuiltinDef>();
for (const table of categories) addTable(table, false);

function addTable(table: BuiltinTable, custom: boolean): void {
  for (const name of Object.keys(table)) {
    if (registry.has(name)) {
      throw new RegoError("rego_compile_error", custom ? `custom builtin ${name} conflicts with an existing builtin` : `builtin ${name} is registered twice`);
    }
    registry.set(name, table[name]!);
  }
}

export function getBuiltin(name: string): BuiltinDef | undefined {
  return registry.get(name);
}

export function builtinNames(): string[] {
  return [...registry.keys()].sort();
}

/** Adds application-defined builtins; a name that clashes with an existing builtin is refused. */
export function registerBuiltins(table: BuiltinTable): void {
  addTable(table, true);
}

/** Registers one category table (used by category files' tests and by the registry list). */
export function registerCategory(table: BuiltinTable): void {
  addTable(table, false);
}

/**
 * The single policy for a failed builtin call: errors become undefined unless strict mode is on;
 * errors that must always propagate (conflicts, halts, internal) are rethrown. The message gets
 * OPA's `name: ` prefix and the call site's location.
 */
export function builtinFailed(ctx: EvalContext, site: CallSite, e: unknown): undefined {
  const err = asBuiltinError(site, e);
  if (err.details === HALT || ctx.strict || !(err.code === "eval_type_error" || err.code === "eval_builtin_error")) throw err;
  return undefined;
}

/** Marks an error that stops evaluation even in non-strict mode (OPA's halt errors). */
export const HALT = Symbol("halt");

function asBuiltinError(site: CallSite, e: unknown): RegoError {
  if (e instanceof RegoError) {
    if (e.location) return e;
    const prefixed = e.code === "eval_type_error" || e.code === "eval_builtin_error" ? `${site.name}: ${e.message}` : e.message;
    return new RegoError(e.code, prefixed, site.location, { details: e.details, cause: e.cause });
  }
  // A JS exception inside a builtin is a bug or a library failure: report it as a builtin error.
  const message = e instanceof Error ? e.message : String(e);
  return new RegoError("eval_builtin_error", `${site.name}: ${message}`, site.location, { cause: e });
}

/** Calls a builtin with the invoke policy applied (generated code may inline the same shape). */
export function invokeBuiltin(ctx: EvalContext, def: BuiltinDef, site: CallSite, args: Value[]): Value | undefined {
  if (def.nondeterministic) return invokeCached(ctx, def, site, args);
  try {
    return (def.fn as BuiltinFn)(ctx, ...args);
  } catch (e) {
    return builtinFailed(ctx, site, e);
  }
}

/** Nondeterministic builtins give one value per evaluation for the same arguments. */
function invokeCached(ctx: EvalContext, def: BuiltinDef, site: CallSite, args: Value[]): Value | undefined {
  const key = `${site.name}(${canonicalKey(args)})`;
  if (ctx.builtinCache.has(key)) return ctx.builtinCache.get(key);
  let result: Value | undefined;
  try {
    result = (def.fn as BuiltinFn)(ctx, ...args);
  } catch (e) {
    result = builtinFailed(ctx, site, e);
  }
  ctx.builtinCache.set(key, result);
  return result;
}

/** Async variant for builtins that do I/O. */
export async function invokeBuiltinAsync(ctx: EvalContext, def: BuiltinDef, site: CallSite, args: Value[]): Promise<Value | undefined> {
  const key = def.nondeterministic ? `${site.name}(${canonicalKey(args)})` : undefined;
  if (key !== undefined && ctx.builtinCache.has(key)) return ctx.builtinCache.get(key);
  try {
    const result = await def.fn(ctx, ...args);
    if (key !== undefined) ctx.builtinCache.set(key, result);
    return result;
  } catch (e) {
    return builtinFailed(ctx, site, e);
  }
}
