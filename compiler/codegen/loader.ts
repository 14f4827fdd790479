// A generated module → a live module that shares the host's runtime instance (`instanceof
// RegoSet` holds across). Two routes, one per form:
// - A "function" body (GenerateOptions.language, what compilePlan, compileRego, Authorizer, Engine,
//   bundles, hot reload and the test runner generate) is compiled by `vm.compileFunction` and called
//   with the runtime's exports it names (GeneratedModule.runtimeImports) as arguments; it returns
//   its exports. No module loader: Node's ESM loader keeps every module it imported for the life
//   of the process (a data: URL's whole base64 text as the key), so a server that recompiles
//   policies would keep every version; a function is collected with its last reference, and
//   compiles quicker than an import (see bench/codegen.bench.ts). compileFunction rather than
//   `new Function` (which --disallow-code-generation-from-strings forbids) or a vm.Script around
//   the text (a copy of it), and it names the code's file in stack traces.
// - An ES module's text (generated TypeScript, through esbuild, which strips the types — a large
//   module in pieces, concurrently — or generated "javascript") is imported by `import()`, its
//   imports (from "regoc/eval" and the builtin categories' "regoc/builtins/<category>") turned into
//   reads of the runtime object and the categories' tables from a slot of its own on globalThis,
//   removed once imported: from a data: URL, or a large one (FILE_IMPORT characters or
//   more) from a file of its own in a fresh temporary directory, removed once imported (as a URL,
//   Node parses the whole text, keys its module map by it and decodes it, a large module's cost; for
//   small modules the file's creation and removal cost more). Such modules stay in the module map:
//   the route is for code a user hands over as a module, not what regoc's own compiles take.
//   (TypeScript is not turned into a function body: esbuild would have to emit CommonJS, whose
//   export wrappers a module transformed in pieces would get once per piece.)
// Either way the runtime is an object (LoadOptions.runtime, else this package's own runtime by an
// import bundlers follow), never a URL relative to this file: that breaks once a server is bundled.
// Either way the builtins the module calls are loaded first, by category (runtime/builtins/
// catalog.ts): a function body's from the registry, once loaded; a module's imports of categories
// read the loaded tables.
// For ahead-of-time use, `writeModule` saves the .ts file instead.
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { randomUUID } from "node:crypto";
import { availableParallelism, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { compileFunction } from "node:vm";
import { CATEGORIES, loadAllBuiltins, loadBuiltins, loadCategory } from "../../runtime/builtins/catalog.js";
import { RegoError } from "../../runtime/errors.js";
import type { EntrypointTable } from "../../runtime/eval/prepared.js";
import { BUILTINS_MODULE, RUNTIME_MODULE } from "./module.js";

/** The runtime module generated code imports as "regoc/eval": its exports by name (a module namespace). */
export type RuntimeModule = Readonly<Record<string, unknown>>;

/** A cache (module state on purpose): this package's runtime, imported once. */
let ownRuntime: Promise<RuntimeModule> | undefined;

/** This package's runtime, imported by a literal specifier (a bundler includes it). A failure is
 * an eval_internal_error: the policy is not at fault. */
function defaultRuntime(code: string): Promise<RuntimeModule> {
  ownRuntime ??= import("../../runtime/eval/index.js").then(
    (m) => m as RuntimeModule,
    (e: unknown) => {
      ownRuntime = undefined;
      throw runtimeImportError(code, e);
    },
  );
  return ownRuntime;
}

/** What a generated module exports (plus one function per entrypoint). */
export interface LoadedModule {
  entrypoints: EntrypointTable;
  [name: string]: unknown;
}

/** This package's runtime did not import: not the policy's fault. */
function runtimeImportError(source: string, e: unknown): RegoError {
  return new RegoError("eval_internal_error", `generated module: cannot import the runtime ("regoc/eval"): ${(e as Error).message}`, undefined, {
    details: { source },
    cause: e,
  });
}

function loadError(message: string, source: string, cause?: unknown): RegoError {
  return new RegoError("rego_compile_error", `generated module: ${message}`, undefined, { details: { source }, cause });
}

export interface ToJavaScriptOptions {
  /** Drop layout whitespace (what `loadModule` imports: a third smaller, quicker for V8 to parse;
   * nobody reads that text — a loaded module keeps its TypeScript as its source). */
  compact?: boolean;
  /** Where the module's functions start (GeneratedModule.functionStarts, for this very `code`):
   * a large module is then transformed in pieces cut there, concurrently. */
  functionStarts?: readonly number[];
}

const TRANSFORM = { loader: "ts", format: "esm", target: "es2022", sourcemap: false } as const;

/** A cache (module state on purpose): esbuild's transform, loaded on first use (a module generated as JavaScript never needs it),
 * then kept: a dynamic import per call costs more than a small module's transform. */
let esbuildTransform: typeof import("esbuild").transform | undefined;

/** Modules of at least twice this many characters are transformed in pieces. */
const PIECE = 1 << 20;

/**
 * Where to cut a module into pieces of about equal size, one per core (esbuild transforms
 * concurrent requests on its own threads): at function starts nearest the even split points. A
 * start that is not at the beginning of a line cannot be one generateModule gave, and is skipped.
 */
function cutPoints(code: string, starts: readonly number[]): number[] {
  const n = Math.min(availableParallelism(), Math.floor(code.length / PIECE));
  const cuts: number[] = [];
  let j = 0;
  for (let k = 1; k < n; k++) {
    const target = Math.floor((code.length * k) / n);
    while (j < starts.length && starts[j]! < target) j++;
    const cut = starts[j];
    if (cut === undefined) break;
    if (cut > (cuts[cuts.length - 1] ?? 0) && cut < code.length && code[cut - 1] === "\n") cuts.push(cut);
  }
  return cuts;
}

/**
 * TS → JS, in pieces where `cuts` allow. Each piece is whole top-level statements, so it
 * transforms on its own; `verbatimModuleSyntax` keeps the first piece's runtime import although
 * the functions using it are in other pieces (the generator imports only what the module uses).
 * Should a piece fail, the whole module is transformed, for esbuild's own error.
 */
async function transformPieces(code: string, compact: boolean, cuts: readonly number[]): Promise<string> {
  const transform = (esbuildTransform ??= (await import("esbuild")).transform);
  const whole = async () => (await transform(code, { ...TRANSFORM, minifyWhitespace: compact })).code;
  if (cuts.length === 0) return whole();
  const bounds = [0, ...cuts, code.length];
  const options = { ...TRANSFORM, minifyWhitespace: compact, tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true } } };
  try {
    const out = await Promise.all(cuts.concat(code.length).map((end, i) => transform(code.slice(bounds[i], end), options)));
    return out.map((r) => r.code).join("");
  } catch {
    return whole();
  }
}

/** TS → JS (the imports kept). */
export async function toJavaScript(code: string, options: ToJavaScriptOptions = {}): Promise<string> {
  try {
    return await transformPieces(code, options.compact === true, cutPoints(code, options.functionStarts ?? []));
  } catch (e) {
    throw loadError(`does not compile: ${(e as Error).message}`, code, e);
  }
}

/** Where an ES module being imported finds its runtime: globalThis[RUNTIME_SLOTS][id][specifier]. */
const RUNTIME_SLOTS = Symbol.for("regoc.loader.runtime");
type Slots = Record<string, Record<string, RuntimeModule>>;

/** One import at the head of `js` (after its header's line comments, if any). */
const HEAD_IMPORT = /^((?:\s*\/\/[^\n]*\n)*)\s*import\s*\{([^}]*)\}\s*from\s*"([^"]*)";/;

/**
 * `js` with its imports (RUNTIME_MODULE's, then a builtin category's each) turned into reads of
 * slot `id`, and what they import: the runtime's names, the categories' modules by specifier.
 */
function withRuntimeSlot(js: string, code: string, id: string): { js: string; names: string[]; categories: string[] } {
  const names: string[] = [];
  const categories: string[] = [];
  let rest = js;
  let head = "";
  for (let m = HEAD_IMPORT.exec(rest); m !== null; m = HEAD_IMPORT.exec(rest)) {
    const from = m[3]!;
    const specs = m[2]!.split(",").map((s) => s.trim()).filter((s) => s !== "").map((s) => s.split(/\s+as\s+/));
    if (from === RUNTIME_MODULE) names.push(...specs.map(([name]) => name!));
    else if (from.startsWith(BUILTINS_MODULE) && CATEGORIES.includes(from.slice(BUILTINS_MODULE.length))) categories.push(from.slice(BUILTINS_MODULE.length));
    else if (from.startsWith(BUILTINS_MODULE)) throw loadError(`no builtin category ${JSON.stringify(from)}`, code);
    else break;
    const pattern = specs.map(([name, local]) => (local === undefined ? name! : `${name!}: ${local}`)).join(", ");
    head += `${m[1]!}const {${pattern}} = globalThis[Symbol.for(${JSON.stringify(RUNTIME_SLOTS.description)})][${JSON.stringify(id)}][${JSON.stringify(from)}];`;
    rest = rest.slice(m[0].length);
  }
  // esbuild drops imports nothing uses; a module that needs nothing from the runtime is fine.
  if (/\bfrom\s*"regoc[/"]/.test(rest)) throw loadError(`expected the module to start with its imports from "${RUNTIME_MODULE}" and "${BUILTINS_MODULE}<category>"`, code);
  return { js: head + rest, names, categories };
}

/** What an import of names the runtime lacks fails with, before any code runs. */
function checkNames(runtime: RuntimeModule, names: readonly string[], code: string): void {
  const unknown = names.filter((n) => !Object.hasOwn(runtime, n));
  if (unknown.length > 0) throw loadError(`the runtime does not export ${unknown.join(", ")}`, code);
}

/** How to load `code`: a GeneratedModule has these fields, so `loadModule(g.code, g)` loads it. */
export interface LoadOptions {
  /** GeneratedModule.functionStarts for this `code` (see ToJavaScriptOptions). */
  functionStarts?: readonly number[];
  /** GeneratedModule.language of `code` (default "typescript"). */
  language?: "typescript" | "javascript" | "function";
  /** GeneratedModule.runtimeImports: a "function" body's parameters. */
  runtimeImports?: readonly string[];
  /** GeneratedModule.builtins: a "function" body's builtins, loaded before it runs (default:
   * every builtin). A module imports its builtins' categories itself. */
  builtins?: readonly string[];
  /** The runtime the module's imports from "regoc/eval" read: a module namespace (`await
   * import("regoc/eval")`); by default this package's runtime. Values the module makes are that
   * runtime's (`instanceof RegoSet` holds against its RegoSet). The builtin categories it imports
   * are this package's. */
  runtime?: RuntimeModule;
}

/** Loads a generated module (each call makes a new module instance). */
export async function loadModule(code: string, options: LoadOptions = {}): Promise<LoadedModule> {
  let mod: LoadedModule;
  if (options.language === "function") {
    await (options.builtins ? loadBuiltins(options.builtins) : loadAllBuiltins());
    mod = await callFunctionBody(code, options.runtimeImports ?? [], options.runtime ?? (await defaultRuntime(code)));
  } else {
    const js =
      options.language === "javascript"
        ? code
        : await toJavaScript(code, { compact: true, ...(options.functionStarts ? { functionStarts: options.functionStarts } : {}) });
    mod = await importWithRuntime(js, code, options.runtime);
  }
  if (typeof mod !== "object" || mod === null || typeof mod.entrypoints !== "object" || mod.entrypoints === null) {
    throw loadError("exports no entrypoints table", code);
  }
  return mod;
}

/** What running a module's top level threw: a RegoError (a builtin missing from the site table,
 * say) keeps its code, message and location; anything else is a compile error of the module. */
function failedToLoad(e: unknown, code: string): RegoError {
  if (e instanceof RegoError) return new RegoError(e.code, e.message, e.location, { details: { ...(e.details as object), source: code }, cause: e });
  return loadError(`failed to load: ${(e as Error).message}`, code, e);
}

/** The name generated functions get in stack traces. */
const FUNCTION_FILENAME = "regoc-generated-module.js";

/** Compiles a "function" body and calls it with the runtime's `names` (see the top of this file). */
async function callFunctionBody(code: string, names: readonly string[], runtime: RuntimeModule): Promise<LoadedModule> {
  checkNames(runtime, names, code);
  let body: (...args: unknown[]) => unknown;
  try {
    body = compileFunction(code, [...names], { filename: FUNCTION_FILENAME }) as typeof body;
  } catch (e) {
    throw loadError(`does not compile: ${(e as Error).message}`, code, e);
  }
  try {
    return body(...names.map((n) => runtime[n])) as LoadedModule;
  } catch (e) {
    throw failedToLoad(e, code);
  }
}

/** Imports module text `js` (from `code`) with its runtime import reading `runtime`. */
async function importWithRuntime(js: string, code: string, runtime: RuntimeModule | undefined): Promise<LoadedModule> {
  const id = randomUUID();
  const { js: text, names, categories } = withRuntimeSlot(js, code, id);
  const slots = ((globalThis as Record<symbol, Slots | undefined>)[RUNTIME_SLOTS] ??= Object.create(null) as Slots);
  const modules = Object.create(null) as Record<string, RuntimeModule>;
  for (const c of categories) modules[`${BUILTINS_MODULE}${c}`] = { [`${c}Builtins`]: await loadCategory(c) };
  if (names.length > 0) {
    const rt = runtime ?? (await defaultRuntime(code));
    checkNames(rt, names, code);
    modules[RUNTIME_MODULE] = rt;
  }
  slots[id] = modules;
  try {
    return await importText(text);
  } catch (e) {
    throw failedToLoad(e, code);
  } finally {
    delete slots[id];
  }
}

/** Modules of at least this many characters are imported from a temporary file. */
const FILE_IMPORT = 1 << 20;

/** Imports JavaScript text as a new module instance (see the top of this file). */
async function importText(js: string): Promise<LoadedModule> {
  const fromUrl = async () => (await import(`data:text/javascript;base64,${Buffer.from(js, "utf8").toString("base64")}`)) as LoadedModule;
  if (js.length < FILE_IMPORT) return fromUrl();
  let dir: string;
  try {
    dir = await mkdtemp(join(tmpdir(), "regoc-"));
  } catch {
    return fromUrl(); // no writable temporary directory
  }
  try {
    const file = join(dir, "module.mjs");
    await writeFile(file, js, { flag: "wx", mode: 0o600 });
    return (await import(pathToFileURL(file).href)) as LoadedModule;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Writes generated code (or a bundle archive) to `file` (directories created) for ahead-of-time
 * use: into a temporary file beside it, then renamed over it, so that a reader never sees half a module. */
export function writeModuleSync(file: string, code: string | Buffer): void {
  mkdirSync(dirname(file), { recursive: true });
  const temp = join(dirname(file), `.${randomUUID()}.regoc.tmp`);
  try {
    writeFileSync(temp, code, typeof code === "string" ? { encoding: "utf8", flag: "wx" } : { flag: "wx" });
    renameSync(temp, file);
  } catch (e) {
    rmSync(temp, { force: true });
    throw e;
  }
}

/** writeModuleSync, for callers that await. */
export async function writeModule(file: string, code: string): Promise<void> {
  writeModuleSync(file, code);
}
