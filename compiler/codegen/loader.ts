// Generated TypeScript → a live module. esbuild strips the types; the one import specifier the
// generator writes ("regoc") is replaced by the URL of the runtime module this loader itself uses,
// so the module shares the host's runtime instance (`instanceof RegoSet` holds across); the JS is
// imported from a data: URL. For ahead-of-time use, `writeModule` saves the .ts file instead.
//
// One subtlety: when this file runs as CommonJS (Node >= 20.19 `require()`s TypeScript test files
// and tsx compiles them — and everything they import — to CommonJS, e.g. under mocha), the host's
// runtime is the CommonJS instance, which an ESM `import` of the same file would not return. The
// module then takes its runtime from `require` (node:module's createRequire) instead.
import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
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

/** True when this file was compiled to CommonJS (then `__filename` is defined). */
const commonJS = typeof __filename === "string";

function loadError(message: string, source: string, cause?: unknown): RegoError {
  return new RegoError("rego_compile_error", `generated module: ${message}`, undefined, { details: { source }, cause });
}

/** TS → JS with the runtime import pointed at this process's runtime. */
export async function toJavaScript(code: string): Promise<string> {
  let js: string;
  try {
    js = (await transform(code, { loader: "ts", format: "esm", target: "es2022", sourcemap: false })).code;
  } catch (e) {
    throw loadError(`does not compile: ${(e as Error).message}`, code, e);
  }
  const m = IMPORT.exec(js);
  if (!m) {
    // esbuild drops imports nothing uses; a module that needs nothing from the runtime is fine.
    if (!/\bfrom\s*"regoc"/.test(js)) return js;
    throw loadError('expected the module to start with its import from "regoc"', code);
  }
  const specifiers = m[1]!;
  const rest = js.slice(m[0].length);
  if (!commonJS) return `import {${specifiers}} from ${JSON.stringify(RUNTIME_URL)};${rest}`;
  const names = specifiers
    .split(",")
    .map((x) => x.trim())
    .filter((x) => x !== "")
    .map((x) => {
      const p = /^([A-Za-z_$][\w$]*)(?:\s+as\s+([A-Za-z_$][\w$]*))?$/.exec(x);
      if (!p) throw loadError(`unexpected import specifier ${JSON.stringify(x)}`, code);
      return p[2] ? `${p[1]}: ${p[2]}` : p[1]!;
    });
  const runtimeFile = JSON.stringify(fileURLToPath(RUNTIME_URL));
  return `import { createRequire as __regocRequire } from "node:module";\nconst { ${names.join(", ")} } = __regocRequire(${runtimeFile})(${runtimeFile});${rest}`;
}

/** Imports generated TypeScript as a module (each call makes a new module instance). */
export async function loadModule(code: string): Promise<LoadedModule> {
  const js = await toJavaScript(code);
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
