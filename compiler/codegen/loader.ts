// Generated TypeScript → a live module. esbuild strips the types (dropping layout whitespace for
// loading); the one import specifier the generator writes ("regoc") is replaced by the URL of the
// runtime module this loader itself uses, so the module shares the host's runtime instance
// (`instanceof RegoSet` holds across); the JS is imported from a data: URL. For ahead-of-time use,
// `writeModule` saves the .ts file instead.
import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { transform } from "esbuild";
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

const IMPORT = /^\s*import\s*\{([^}]*)\}\s*from\s*"regoc";/;

function loadError(message: string, source: string, cause?: unknown): RegoError {
  return new RegoError("rego_compile_error", `generated module: ${message}`, undefined, { details: { source }, cause });
}

export interface ToJavaScriptOptions {
  /** Drop layout whitespace (what `loadModule` imports: a third smaller, quicker for V8 to parse;
   * nobody reads that text — a loaded module keeps its TypeScript as its source). */
  compact?: boolean;
}

const TRANSFORM = { loader: "ts", format: "esm", target: "es2022", sourcemap: false } as const;

/** TS → JS with the runtime import pointed at this process's runtime. */
export async function toJavaScript(code: string, options: ToJavaScriptOptions = {}): Promise<string> {
  let js: string;
  try {
    js = (await transform(code, { ...TRANSFORM, minifyWhitespace: options.compact === true })).code;
  } catch (e) {
    throw loadError(`does not compile: ${(e as Error).message}`, code, e);
  }
  const m = IMPORT.exec(js);
  if (!m) {
    // esbuild drops imports nothing uses; a module that needs nothing from the runtime is fine.
    if (!/\bfrom\s*"regoc"/.test(js)) return js;
    throw loadError('expected the module to start with its import from "regoc"', code);
  }
  return `import {${m[1]!}} from ${JSON.stringify(RUNTIME_URL)};${js.slice(m[0].length)}`;
}

/** Imports generated TypeScript as a module (each call makes a new module instance). */
export async function loadModule(code: string): Promise<LoadedModule> {
  const js = await toJavaScript(code, { compact: true });
  const url = `data:text/javascript;base64,${Buffer.from(js, "utf8").toString("base64")}`;
  let mod: LoadedModule;
  try {
    mod = (await import(url)) as LoadedModule;
  } catch (e) {
    if (e instanceof RegoError) throw new RegoError(e.code, e.message, e.location, { details: { ...(e.details as object), source: code }, cause: e });
    throw loadError(`failed to load: ${(e as Error).message}`, code, e);
  }
  if (typeof mod.entrypoints !== "object" || mod.entrypoints === null) throw loadError("exports no entrypoints table", code);
  return mod;
}

/** Writes generated TypeScript to `file` (directories created) for ahead-of-time use. */
export async function writeModule(file: string, code: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, code, "utf8");
}
