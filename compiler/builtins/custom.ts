// Builtins a run brings with it (`--builtins <module>`, `--capabilities <file>`): their declarations
// extend the compiler's capabilities, their implementations go into the one runtime registry
// (registerBuiltins), and a declared builtin without an implementation fails where it is called,
// as OPA's evaluator fails on a builtin its capabilities declare but it does not have.
import { existsSync, readFileSync } from "node:fs";
import { extname, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { isBuiltin, registerBuiltins } from "../../runtime/builtins/catalog.js";
import type { BuiltinDef, BuiltinTable } from "../../runtime/builtins/registry.js";
import { RegoError } from "../../runtime/errors.js";
import { defaultCapabilities, parseCapabilities, type Capabilities, type CapabilityEntry, type TypeDecl } from "./decls.js";

/** What a `--builtins` module exports. */
export interface BuiltinsModule {
  /** OPA capabilities entries: `{ name, decl: { type: "function", args: [...], result: {...} } }`. */
  declarations: CapabilityEntry[];
  /** Implementations by name, as `registerBuiltins` takes them: `{ "custom.greet": { fn: (ctx, name) => ... } }`. */
  implementations: BuiltinTable;
}

const TYPES = new Set(["any", "null", "boolean", "number", "string", "array", "object", "set", "function"]);

function invalid(source: string, message: string): RegoError {
  return new RegoError("rego_compile_error", `${source}: ${message}`);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Checks a type in the capabilities JSON form (OPA's `types` JSON), naming the offending path. */
function checkType(t: unknown, at: string, source: string): void {
  if (!isObject(t) || typeof t.type !== "string" || !TYPES.has(t.type)) throw invalid(source, `${at}: not a type (expected {"type": "string"}, {"type": "any"}, ...)`);
  const sub = (v: unknown, path: string) => v !== undefined && checkType(v, `${at}.${path}`, source);
  const list = (v: unknown, path: string, each: (x: unknown, i: number) => void) => {
    if (v === undefined) return;
    if (!Array.isArray(v)) throw invalid(source, `${at}.${path}: not a list`);
    v.forEach(each);
  };
  switch (t.type) {
    case "any":
      list(t.of, "of", (x, i) => checkType(x, `${at}.of[${i}]`, source));
      return;
    case "set":
      sub(t.of, "of");
      return;
    case "array":
      list(t.static, "static", (x, i) => checkType(x, `${at}.static[${i}]`, source));
      sub(t.dynamic, "dynamic");
      return;
    case "object":
      list(t.static, "static", (x, i) => {
        if (!isObject(x)) throw invalid(source, `${at}.static[${i}]: not a {key, value} pair`);
        checkType(x.value, `${at}.static[${i}].value`, source);
      });
      if (t.dynamic !== undefined) {
        if (!isObject(t.dynamic)) throw invalid(source, `${at}.dynamic: not a {key, value} pair`);
        checkType(t.dynamic.key, `${at}.dynamic.key`, source);
        checkType(t.dynamic.value, `${at}.dynamic.value`, source);
      }
      return;
    case "function":
      list(t.args, "args", (x, i) => checkType(x, `${at}.args[${i}]`, source));
      sub(t.result, "result");
      sub(t.variadic, "variadic");
      return;
  }
}

/** Checks a list of capabilities entries (`{name, decl}` with a function type). */
function checkEntries(entries: unknown, source: string): CapabilityEntry[] {
  if (!Array.isArray(entries)) throw invalid(source, "builtins must be a list of {name, decl} entries");
  for (const [i, e] of entries.entries()) {
    if (!isObject(e) || typeof e.name !== "string" || e.name === "") throw invalid(source, `builtin #${i}: no name`);
    if (!isObject(e.decl) || e.decl.type !== "function") throw invalid(source, `${e.name}: decl must be {"type": "function", "args": [...], "result": {...}}`);
    checkType(e.decl, `${e.name}: decl`, source);
  }
  return entries as CapabilityEntry[];
}

/** OPA's capabilities JSON (`opa capabilities`), as `--capabilities` reads it: the builtins it
 * declares are the only ones a policy may call. */
function readCapabilitiesFile(path: string): Capabilities {
  // OPA also takes a version name (v0.70.0) for its embedded history of capabilities; regoc has only its own
  if (/^v\d+\.\d+\.\d+$/.test(path) && !existsSync(path)) throw invalid(path, `capabilities versions are not bundled: give a capabilities JSON file (\`opa capabilities --version ${path}\`)`);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== undefined) throw e;
    throw invalid(path, `not JSON: ${(e as Error).message}`);
  }
  if (!isObject(json)) throw invalid(path, "not a capabilities object ({\"builtins\": [...]})");
  const builtins = checkEntries(json.builtins ?? [], path);
  const strings = (v: unknown, key: string): string[] => {
    if (v !== undefined && !(Array.isArray(v) && v.every((x) => typeof x === "string"))) throw invalid(path, `${key} must be a list of strings`);
    return (v as string[] | undefined) ?? [];
  };
  return parseCapabilities({ builtins, future_keywords: strings(json.future_keywords, "future_keywords"), features: strings(json.features, "features") });
}

/** Imports a `--builtins` module (a path relative to the working directory) and checks its exports. */
async function importBuiltinsModule(path: string): Promise<BuiltinsModule> {
  const ext = extname(path);
  if (![".js", ".mjs", ".ts", ".mts"].includes(ext)) throw invalid(path, "a builtins module is an ES module: .js, .mjs (or .ts where TypeScript loads)");
  let mod: Record<string, unknown>;
  try {
    mod = (await import(pathToFileURL(resolve(path)).href)) as Record<string, unknown>;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const hint =
      code === "ERR_UNKNOWN_FILE_EXTENSION"
        ? " (TypeScript modules load only under a TypeScript loader such as tsx: compile it to .js)"
        : e instanceof SyntaxError && ext === ".js"
          ? ' (a .js file is an ES module only in a package with "type": "module": or name it .mjs)'
          : "";
    throw moduleLoadError(path, e, hint);
  }
  const declarations = checkEntries(mod.declarations, `${path}: declarations`);
  const implementations = mod.implementations ?? {};
  if (!isObject(implementations)) throw invalid(path, "implementations must be an object of { fn } by builtin name");
  const declared = new Set(declarations.map((d) => d.name));
  for (const [name, def] of Object.entries(implementations)) {
    if (!isObject(def) || typeof def.fn !== "function") throw invalid(path, `implementations[${JSON.stringify(name)}] must be { fn: (ctx, ...args) => value }`);
    if (!declared.has(name)) throw invalid(path, `${name} has an implementation but no declaration`);
  }
  return { declarations, implementations: implementations as BuiltinTable };
}

/** The capabilities with more builtins declared; a name already declared is refused. */
function extendCapabilities(base: Capabilities, entries: readonly CapabilityEntry[], source: string): Capabilities {
  const added = parseCapabilities({ builtins: [...entries] }).builtins;
  for (const name of added.keys()) if (base.builtins.has(name)) throw invalid(source, `custom builtin ${name} conflicts with an existing builtin`);
  return { ...base, builtins: new Map([...base.builtins, ...added]) };
}

/**
 * The capabilities a compile with custom builtins uses: OPA's, plus each builtin's `decl` (an
 * Authorizer's or Engine's `builtins`, and the registered ones that declare a type), checked as a
 * `--builtins` module's declarations; a name OPA declares is refused. `source` names the table in
 * errors.
 */
export function capabilitiesWith(table: BuiltinTable, source: string): Capabilities {
  if (!isObject(table)) throw invalid(source, "must be an object of { decl, fn } by builtin name");
  const entries: unknown[] = [];
  for (const [name, def] of Object.entries(table)) {
    if (!isObject(def) || typeof def.fn !== "function") throw invalid(source, `${name} must be { decl, fn: (ctx, ...args) => value }`);
    if (def.decl === undefined) throw invalid(source, `${name} has no decl (its type, as OPA's capabilities declare one: { type: "function", args: [...], result: {...} })`);
    entries.push({ name, decl: def.decl });
  }
  return extendCapabilities(defaultCapabilities(), checkEntries(entries, source), source);
}

/** OPA's answer for a builtin its capabilities declare but its evaluator lacks: an internal error
 * at the call, raised in strict and non-strict mode alike (it is not a builtin's own error). */
const unsupported: BuiltinDef = {
  fn: () => {
    throw unsupportedBuiltinError();
  },
};

export interface RunBuiltins {
  /** The capabilities to compile with; undefined when neither flag was given (the default ones). */
  capabilities: Capabilities | undefined;
  /** Takes the run's builtins out of the registry again. */
  unregister(): void;
}

/** Prepares a run's builtins from the `--builtins` module and the `--capabilities` file (either
 * may be absent): the compiler's capabilities, and the registry entries for the run. */
export async function prepareBuiltins(options: { module?: string | undefined; capabilities?: string | undefined }): Promise<RunBuiltins> {
  if (options.module === undefined && options.capabilities === undefined) return { capabilities: undefined, unregister: () => {} };
  let capabilities = options.capabilities !== undefined ? readCapabilitiesFile(options.capabilities) : defaultCapabilities();
  const table: BuiltinTable = {};
  if (options.module !== undefined) {
    const mod = await importBuiltinsModule(options.module);
    capabilities = extendCapabilities(capabilities, mod.declarations, options.module);
    Object.assign(table, mod.implementations);
  }
  // regoc's own builtins without an implementation (eq, assign: compiled away) keep their handling
  const known = defaultCapabilities().builtins;
  for (const name of capabilities.builtins.keys()) if (!Object.hasOwn(table, name) && !known.has(name) && !isBuiltin(name)) table[name] = unsupported;
  return { capabilities, unregister: registerBuiltins(table) };
}

/** A builtins module (`--builtins`) that does not load; `hint` names the likely cause. */
function moduleLoadError(path: string, e: unknown, hint: string): RegoError {
  return new RegoError("rego_compile_error", `${path}: cannot load builtins module: ${(e as Error).message}${hint}`, undefined, { cause: e });
}

function unsupportedBuiltinError(): RegoError {
  return new RegoError("eval_internal_error", "unsupported built-in");
}
