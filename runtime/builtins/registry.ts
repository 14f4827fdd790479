// The one builtin registry: every category file under runtime/builtins/ exports a BuiltinTable
// keyed by OPA's exact builtin name (`<category>Builtins`); catalog.ts lists the categories, knows
// which builtin is in which, and registers a category here once it is loaded, as it registers
// custom builtins. This file answers lookups and owns the single invoke policy (strict errors vs
// undefined, the `name: ` prefix and location). It imports no category: a generated module imports
// the categories it calls (`regoc/builtins/<category>`) and hands them to its site table, so a
// bundle holds only those; the registry serves custom builtins and the categories loaded so far.
import { RegoError, resourceError, type Location } from "../errors.js";
import { canonicalKey } from "../value/key.js";
import type { Value } from "../value/value.js";
import type { EvalContext } from "./context.js";
import type { TypeDecl } from "../../compiler/builtins/decls.js";

/** A builtin implementation: the context first, then the Rego arguments. Returns undefined for "no value". */
export type BuiltinFn = (ctx: EvalContext, ...args: Value[]) => Value | undefined;
export type AsyncBuiltinFn = (ctx: EvalContext, ...args: Value[]) => Promise<Value | undefined>;

export interface BuiltinDef {
  fn: BuiltinFn | AsyncBuiltinFn;
  /** Returns a Promise: plans that call it get an async entrypoint. */
  async?: boolean;
  /** One value per evaluation for the same arguments (time.now_ns, rand.intn, uuid.rfc4122, ...). */
  nondeterministic?: boolean;
  /** A custom builtin's type as OPA's capabilities declare it (`{ type: "function", args: [{ type:
   * "string" }], result: { type: "string" } }`): what lets Rego that calls it compile (Authorizer,
   * Engine, HotReloader). A plan from `opa build` needs none. */
  decl?: TypeDecl;
}

export type BuiltinTable = Record<string, BuiltinDef>;

/** Where a builtin is called from: the generated code makes one per call site. */
export interface CallSite {
  name: string;
  location?: Location;
}

const registry = new Map<string, BuiltinDef>();

/**
 * Registers a table (catalog.ts: a category once loaded, or custom builtins); a name already
 * registered, or `taken`, is refused and then nothing is registered. Returns a function that
 * removes the table's entries again.
 */
export function addBuiltins(table: BuiltinTable, custom: boolean, taken?: (name: string) => boolean): () => void {
  for (const name of Object.keys(table)) {
    if (registry.has(name) || taken?.(name) === true) {
      throw duplicateBuiltinError(name, custom);
    }
  }
  for (const name of Object.keys(table)) registry.set(name, table[name]!);
  return () => {
    for (const name of Object.keys(table)) if (registry.get(name) === table[name]) registry.delete(name);
  };
}

/** A registered builtin: one of a loaded category (catalog.ts), or a custom one. */
export function getBuiltin(name: string): BuiltinDef | undefined {
  return registry.get(name);
}

/** The registered builtins that declare their type (custom ones, registerBuiltins): every
 * Authorizer's and Engine's default custom builtins. */
export function declaredBuiltins(): BuiltinTable {
  const out: BuiltinTable = {};
  for (const [name, def] of registry) if (def.decl !== undefined) out[name] = def;
  return out;
}

/** The names registered so far. */
export function registeredNames(): string[] {
  return [...registry.keys()];
}

/**
 * The single policy for a failed builtin call: errors become undefined unless strict mode is on;
 * errors that must always propagate (conflicts, halts, internal ones such as an exhausted stack or
 * memory) are rethrown. The message gets
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
    // (a cancelled evaluation has no location, as in OPA: the deadline is not the call's)
    if (e.location || e.code === "eval_cancel_error") return e;
    const prefixed = e.code === "eval_type_error" || e.code === "eval_builtin_error" ? `${site.name}: ${e.message}` : e.message;
    return new RegoError(e.code, prefixed, site.location, { details: e.details, cause: e.cause });
  }
  // The call stack or memory running out is an internal error, raised in every mode.
  const resource = resourceError(e, `${site.name}: `, site.location);
  if (resource !== undefined) return resource;
  // Any other JS exception inside a builtin is a bug or a library failure: a builtin error.
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

/** Nondeterministic builtins give one answer per evaluation for the same arguments (a value or an error). */
function invokeCached(ctx: EvalContext, def: BuiltinDef, site: CallSite, args: Value[]): Value | undefined {
  const key = `${site.name}(${canonicalKey(args)})`;
  let r = ctx.builtinCache.get(key);
  if (r === undefined) {
    try {
      r = { value: (def.fn as BuiltinFn)(ctx, ...args) };
    } catch (e) {
      r = { error: e };
    }
    ctx.builtinCache.set(key, r);
  }
  return "error" in r ? builtinFailed(ctx, site, r.error) : r.value;
}

/** Async variant for builtins that do I/O. */
export async function invokeBuiltinAsync(ctx: EvalContext, def: BuiltinDef, site: CallSite, args: Value[]): Promise<Value | undefined> {
  const key = def.nondeterministic ? `${site.name}(${canonicalKey(args)})` : undefined;
  const remembered = key !== undefined ? ctx.builtinCache.get(key) : undefined;
  if (remembered !== undefined) return "error" in remembered ? builtinFailed(ctx, site, remembered.error) : remembered.value;
  try {
    const value = await def.fn(ctx, ...args);
    if (key !== undefined) ctx.builtinCache.set(key, { value });
    return value;
  } catch (e) {
    if (key !== undefined) ctx.builtinCache.set(key, { error: e });
    return builtinFailed(ctx, site, e);
  }
}

/** A builtin registered over another (`custom`: a user's custom builtin). */
function duplicateBuiltinError(name: string, custom: boolean): RegoError {
  return new RegoError("rego_compile_error", custom ? `custom builtin ${name} conflicts with an existing builtin` : `builtin ${name} is registered twice`);
}
