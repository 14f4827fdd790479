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
//   module in pieces, concurrently — or generated "javascript") is imported by `import()`, its one
//   import specifier ("regoc") replaced by the URL of the runtime module this loader uses: from a
//   data: URL, or a large one (FILE_IMPORT characters or more) from a file of its own in a fresh
//   temporary directory, removed once imported (as a URL, Node parses the whole text, keys its
//   module map by it and decodes it, a large module's cost; for small modules the file's creation
//   and removal cost more). Such modules stay in the module map: the route is
//   for code a user hands over as a module, not what regoc's own compiles take. (TypeScript is not
//   turned into a function body: esbuild would have to emit CommonJS, whose export wrappers a module
//   transformed in pieces would get once per piece.)
// For ahead-of-time use, `writeModule` saves the .ts file instead.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { compileFunction } from "node:vm";
import { RegoError } from "../../runtime/errors.js";
import type { EntrypointTable } from "../../runtime/eval/prepared.js";

/** The runtime module, as the loader sees it: runtime/index.ts from source (tsx), .js from dist/. */
const ownExt = /\.([cm]?[jt]s)$/.exec(new URL(import.meta.url).pathname)?.[1] ?? "js";
export const RUNTIME_URL = new URL(`../../runtime/index.${ownExt}`, import.meta.url).href;

/** What a generated module exports (plus one function per entrypoint). */
export interface LoadedModule {
  entrypoints: EntrypointTable;
  [name: string]: unknown;
}

/** The runtime import, after the header's line comments (if any). */
const IMPORT = /^((?:\s*\/\/[^\n]*\n)*)\s*import\s*\{([^}]*)\}\s*from\s*"regoc";/;

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

/** esbuild's transform, loaded on first use (a module generated as JavaScript never needs it),
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

/** TS → JS with the runtime import pointed at this process's runtime. */
export async function toJavaScript(code: string, options: ToJavaScriptOptions = {}): Promise<string> {
  let js: string;
  try {
    js = await transformPieces(code, options.compact === true, cutPoints(code, options.functionStarts ?? []));
  } catch (e) {
    throw loadError(`does not compile: ${(e as Error).message}`, code, e);
  }
  return withRuntimeUrl(js, code);
}

/** `js` with its import from "regoc" pointed at this process's runtime. */
function withRuntimeUrl(js: string, code: string): string {
  const m = IMPORT.exec(js);
  if (!m) {
    // esbuild drops imports nothing uses; a module that needs nothing from the runtime is fine.
    if (!/\bfrom\s*"regoc"/.test(js)) return js;
    throw loadError('expected the module to start with its import from "regoc"', code);
  }
  return `${m[1]!}import {${m[2]!}} from ${JSON.stringify(RUNTIME_URL)};${js.slice(m[0].length)}`;
}

/** How to load `code`: a GeneratedModule has these fields, so `loadModule(g.code, g)` loads it. */
export interface LoadOptions {
  /** GeneratedModule.functionStarts for this `code` (see ToJavaScriptOptions). */
  functionStarts?: readonly number[];
  /** GeneratedModule.language of `code` (default "typescript"). */
  language?: "typescript" | "javascript" | "function";
  /** GeneratedModule.runtimeImports: a "function" body's parameters. */
  runtimeImports?: readonly string[];
}

/** Loads a generated module (each call makes a new module instance). */
export async function loadModule(code: string, options: LoadOptions = {}): Promise<LoadedModule> {
  let mod: LoadedModule;
  if (options.language === "function") {
    mod = await callFunctionBody(code, options.runtimeImports ?? []);
  } else {
    const js =
      options.language === "javascript"
        ? withRuntimeUrl(code, code)
        : await toJavaScript(code, { compact: true, ...(options.functionStarts ? { functionStarts: options.functionStarts } : {}) });
    try {
      mod = await importText(js);
    } catch (e) {
      throw failedToLoad(e, code);
    }
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

/** The runtime module's exports (the same instance as RUNTIME_URL's import). */
let runtimeExports: Record<string, unknown> | undefined;

/** The name generated functions get in stack traces. */
const FUNCTION_FILENAME = "regoc-generated-module.js";

/** Compiles a "function" body and calls it with the runtime's `names` (see the top of this file). */
async function callFunctionBody(code: string, names: readonly string[]): Promise<LoadedModule> {
  const runtime = (runtimeExports ??= (await import(RUNTIME_URL)) as Record<string, unknown>);
  // (What an import of a name the runtime does not export fails with, before any code runs.)
  const unknown = names.filter((n) => !Object.hasOwn(runtime, n));
  if (unknown.length > 0) throw loadError(`the runtime does not export ${unknown.join(", ")}`, code);
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

/** Writes generated TypeScript to `file` (directories created) for ahead-of-time use. */
export async function writeModule(file: string, code: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, code, "utf8");
}
