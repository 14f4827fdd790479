// `regoc build <paths...> -e authz/allow [-e ...] -o DIR [--schema PATH] [--v0-compatible]
// [--target ts|js|plan|bundle] [--check] [--watch] [--strict]`: compiles the Rego files under the
// paths ahead of time into one module per package, as `opa build` is OPA's front door.
// `--target bundle` writes instead a bundle archive for the bundle client, signed with
// `--signing-key` (see buildBundle below).
//
// - Entrypoints are grouped by the package that holds them (the longest package path that
//   prefixes the entrypoint's path; an entrypoint naming a package itself is its own group). The
//   package `a.b` goes to `DIR/a/b.ts` (`.js` for --target js, `.json` for --target plan), which
//   exports one function per entrypoint of the package, typed from the JSON Schemas where the
//   entrypoint's rules have one in scope.
// - Diagnostics are `regoc check`'s (file:row:col, a code frame, then rego_negation_warning
//   warnings; --strict: the warnings are errors), written to stderr. Any error: nothing is written.
// - Every output is written to a temporary file in its directory and renamed over the old one, and
//   only when its text changed. A file in DIR that an earlier build generated but this one does not
//   (its entrypoint or package is gone) is left in place and named in a warning: deleting is the
//   user's call.
// - --check writes nothing: exit 1 naming each output that is missing or differs, 0 when all are
//   up to date. --watch builds, then rebuilds on every change of a .rego or schema file (the hot
//   reloader's watch loop, runtime/reloadWatch.ts); a failed rebuild keeps the last good output.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, extname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { parseArgs } from "node:util";
import { RegoError, RegoErrors } from "../../runtime/errors.js";
import type { CliCommand } from "../cli.js";
import type { Module } from "../ast/nodes.js";
import { checkRegoProgram, entrypointRef } from "../compile.js";
import { writeModuleSync } from "../codegen/loader.js";
import { generateTypeScript } from "../index.js";
import { DATA_FILES } from "../../runtime/reloadFiles.js";
import { bundleArchive, SIGNING_OPTIONS, signFiles, type SigningFlags } from "./sign.js";
import { formatDiagnostics, loadSchemas, loadSources, readBundleDir } from "./sources.js";
import { fileError, usageError } from "./errors.js";
import { buildFailedError, entrypointWithoutPackageError, unnamablePackageError } from "../errors.js";

export type BuildTarget = "ts" | "js" | "plan";

export interface BuildOptions {
  /** Policy files and directories (their .rego files, recursively). */
  paths: readonly string[];
  /** Rule paths, `authz/allow` or `data.authz.allow`. */
  entrypoints: readonly string[];
  /** The output directory. */
  outDir: string;
  /** `--schema`: a JSON Schema file (input) or a directory of them (schema.<path>). */
  schema?: string;
  v0Compatible?: boolean;
  strict?: boolean;
  target?: BuildTarget;
  /** The command named in each module's header as the one that regenerates it. */
  command: string;
  /** Where relative paths start (default: the process's working directory). Module names, and so
   * the generated code's source comments and the diagnostics, are relative to it for files under
   * it (`policies/authz.rego`), absolute otherwise. */
  cwd?: string;
}

export interface BuildResult {
  /** Compile errors (with `strict`, the warnings too): when there are any, `files` is empty. */
  errors: RegoError[];
  warnings: RegoError[];
  /** Each output's text, by path relative to the output directory ("/" separated). */
  files: Record<string, string>;
  /** The Rego sources, by module name (for code frames). */
  sources: Record<string, string>;
}

const EXTENSION: Record<BuildTarget, string> = { ts: ".ts", js: ".js", plan: ".json" };

/** The first header line of every module regoc build writes (the command follows). */
const HEADER_START = "GENERATED FILE — do not edit. Regenerate with `";

/** Compiles the sources into the text of every output; reads files, writes none. */
export function buildOutputs(options: BuildOptions): BuildResult {
  const cwd = options.cwd ?? process.cwd();
  const v0Compatible = options.v0Compatible === true;
  const strict = options.strict === true;
  const target = options.target ?? "ts";
  const loaded = loadSources(options.paths.map((p) => resolve(cwd, p)), { data: false }).modules;
  const sources: Record<string, string> = {};
  for (const [file, text] of Object.entries(loaded)) sources[named(cwd, file)] = text;
  const schemas = options.schema === undefined ? undefined : loadSchemas(resolve(cwd, options.schema));
  // one compilation: checked, then planned once per package
  const checked = checkRegoProgram({ modules: sources, v0Compatible, strict, ...(schemas ? { schemas } : {}) });
  const result: BuildResult = { errors: checked.errors, warnings: checked.warnings, files: {}, sources };
  if (checked.errors.length > 0) return result;
  const files: Record<string, string> = {};
  try {
    for (const group of groupByPackage(checked.modules, options.entrypoints)) {
      const planned = checked.plan(group.entrypoints);
      const file = group.path.join("/") + EXTENSION[target];
      if (target === "plan") {
        files[file] = `${JSON.stringify(planned.plan, null, 2)}\n`;
        continue;
      }
      const header = [
        `${HEADER_START}${options.command}\`.`,
        `Source: ${group.files.join(", ")} (entrypoint${group.entrypoints.length > 1 ? "s" : ""} ${group.entrypoints.map((e) => `data.${e.replace(/\//g, ".")}`).join(", ")}), compiled by regoc.`,
      ];
      const { schemaTypes, localNames } = planned;
      files[file] = generateTypeScript(planned.plan, { schemaTypes, localNames, header, language: target === "js" ? "javascript" : "typescript" }).code;
    }
  } catch (e) {
    if (e instanceof RegoErrors) return { ...result, errors: [...e.errors] };
    if (e instanceof RegoError) return { ...result, errors: [e] };
    throw e;
  }
  result.files = files;
  return result;
}

/** A loaded file's module name: relative to cwd when the path was given relative. */
function named(cwd: string, file: string): string {
  const rel = relative(cwd, file);
  return rel.startsWith("..") || isAbsolute(rel) ? file : rel;
}

interface PackageGroup {
  /** The package's keys below data. */
  path: string[];
  /** Its entrypoints, as `a/b/c`, in the order given. */
  entrypoints: string[];
  /** The modules declaring the package, sorted. */
  files: string[];
}

/** Entrypoints by the package that holds them (see the top of this file), packages sorted. */
function groupByPackage(modules: readonly Module[], entrypoints: readonly string[]): PackageGroup[] {
  const packages = new Map<string, { path: string[]; files: string[] }>();
  for (const m of modules) {
    const path = m.package.path.slice(1).map((t) => String(t.value));
    const key = path.join("\0");
    const entry = packages.get(key) ?? { path, files: [] };
    entry.files.push(m.package.location.file);
    packages.set(key, entry);
  }
  const groups = new Map<string, PackageGroup>();
  for (const e of entrypoints) {
    const ref = entrypointRef(e);
    let pkg: { path: string[]; files: string[] } | undefined;
    for (let n = ref.length; n > 0 && !pkg; n--) pkg = packages.get(ref.slice(0, n).join("\0"));
    if (!pkg) throw entrypointWithoutPackageError(ref.join("/"));
    const bad = pkg.path.find((s) => s === "" || s === "." || s === ".." || /[/\\\0]/.test(s));
    if (bad !== undefined) throw unnamablePackageError(pkg.path, bad);
    const key = pkg.path.join("\0");
    const group = groups.get(key) ?? { path: pkg.path, entrypoints: [], files: [...pkg.files].sort() };
    const name = ref.join("/");
    if (!group.entrypoints.includes(name)) group.entrypoints.push(name);
    groups.set(key, group);
  }
  return [...groups.values()].sort((a, b) => (a.path.join("/") < b.path.join("/") ? -1 : 1));
}

/** Where a build reports: stdout for progress, stderr for diagnostics. */
export interface BuildIO {
  out(text: string): void;
  err(text: string): void;
}

const processIO: BuildIO = { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) };

/** The outputs that are missing or differ on disk, as paths under outDir's name. */
function staleOutputs(options: BuildOptions, files: Record<string, string>): string[] {
  const dir = resolve(options.cwd ?? process.cwd(), options.outDir);
  return Object.keys(files).filter((f) => {
    const file = join(dir, f);
    return !existsSync(file) || readFileSync(file, "utf8") !== files[f];
  });
}

/** Files under dir with the target's extension whose header says regoc build generated them, and
 * that are not among `files` (relative, "/" separated). */
function leftovers(dir: string, target: BuildTarget, files: Record<string, string>): string[] {
  if (target === "plan" || !existsSync(dir)) return [];
  const out: string[] = [];
  const visit = (rel: string[]) => {
    for (const entry of readdirSync(join(dir, ...rel), { withFileTypes: true })) {
      if (entry.name.startsWith(".")) continue;
      const path = [...rel, entry.name];
      if (entry.isDirectory()) visit(path);
      else if (entry.isFile() && extname(entry.name) === EXTENSION[target] && !Object.hasOwn(files, path.join("/"))) {
        const text = readFileSync(join(dir, ...path), "utf8");
        if (text.startsWith(`// ${HEADER_START}`) && /\n\/\/ Source: .*, compiled by regoc\.\n/.test(text.slice(0, 2000))) out.push(path.join("/"));
      }
    }
  };
  visit([]);
  return out.sort();
}

/** One build: diagnostics, then (without errors) the changed outputs written, or with `check`
 * the stale ones named. Returns the exit code. */
export function runBuild(options: BuildOptions, { check = false, io = processIO }: { check?: boolean; io?: BuildIO } = {}): number {
  const result = buildOutputs(options);
  io.err(formatDiagnostics(result.errors, result.warnings, result.sources));
  if (result.errors.length > 0) return 1;
  const dir = resolve(options.cwd ?? process.cwd(), options.outDir);
  const shown = (f: string) => join(options.outDir, ...f.split("/"));
  for (const f of leftovers(dir, options.target ?? "ts", result.files)) {
    io.err(`warning: ${shown(f)} was generated by regoc build but not by this one (no entrypoint of its package was given): left in place, delete it if it is no longer used\n`);
  }
  const stale = staleOutputs(options, result.files);
  if (check) {
    for (const f of stale) io.err(`${shown(f)} is ${existsSync(join(dir, f)) ? "out of date" : "missing"}: run ${options.command}\n`);
    return stale.length === 0 ? 0 : 1;
  }
  for (const f of stale) {
    writeModuleSync(join(dir, ...f.split("/")), result.files[f]!);
    io.out(`wrote ${shown(f)}\n`);
  }
  if (stale.length === 0) io.out(`${Object.keys(result.files).length} file${Object.keys(result.files).length === 1 ? "" : "s"} up to date\n`);
  return 0;
}

/** `--watch`: builds now, then after every change of a .rego file or a schema under the watched
 * paths. A failed build writes nothing, so the last good output stays. */
export async function watchBuild(options: BuildOptions, { io = processIO, debounceMs = 100 }: { io?: BuildIO; debounceMs?: number } = {}): Promise<{ close(): Promise<void> }> {
  const { ReloadWatch } = await import("../../runtime/reloadWatch.js");
  const cwd = options.cwd ?? process.cwd();
  const outDir = resolve(cwd, options.outDir);
  const schemaPath = options.schema === undefined ? undefined : resolve(cwd, options.schema);
  const under = (path: string, root: string) => {
    const rel = relative(root, path);
    return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
  };
  const relevant = (path: string) => {
    if (under(path, outDir) || (path.split(sep).pop() ?? "").startsWith(".")) return false;
    return path.endsWith(".rego") || (schemaPath !== undefined && under(path, schemaPath) && path.endsWith(".json"));
  };
  const rebuild = async () => {
    let code: number;
    try {
      code = runBuild(options, { io });
    } catch (e) {
      if (!(e instanceof RegoError)) throw e;
      io.err(`${e.toString()}\n`);
      code = 1;
    }
    return code === 0 ? undefined : buildFailedError();
  };
  const watch = await ReloadWatch.start({
    paths: [...options.paths.map((p) => resolve(cwd, p)), ...(schemaPath ? [schemaPath] : [])],
    debounceMs,
    relevant,
    rebuild,
    report: (e) => io.err(`${e.message}; watching for changes\n`),
    label: "regoc build --watch",
  });
  const first = await watch.first();
  if (first) io.err(`${first.message}; watching for changes\n`);
  io.out("watching for changes (Ctrl-C stops)\n");
  return watch;
}

const USAGE =
  "usage: regoc build <paths...> -e <entrypoint> [-e ...] -o <dir> [--schema PATH] [--v0-compatible] [--target ts|js|plan|bundle] [--check] [--watch] [--strict]\n" +
  "  one module per package: the entrypoints of package a.b go to <dir>/a/b.ts, one exported function each\n" +
  "  -e, --entrypoint  a rule path such as authz/allow (repeatable)\n" +
  "  -o, --output      the output directory\n" +
  "  -s, --schema      a JSON Schema file (the type of input) or a directory of them, as for regoc check\n" +
  "  -t, --target      ts (typed TypeScript, the default), js (JavaScript ES modules), plan (OPA's plan JSON),\n" +
  "                    or bundle: <dir>/bundle.tar.gz for the bundle client (the .rego and data files, as opa build)\n" +
  "  --revision        bundle: the .manifest's revision\n" +
  "  --signing-key     bundle: sign it (.signatures.json) with this PEM private key (file or text) or HMAC secret\n" +
  "  --signing-alg     bundle: the JWS algorithm (default RS256); --claims-file FILE: extra claims (scope, keyid, ...)\n" +
  "  --check           write nothing; exit 1 naming each output that is missing or out of date\n" +
  "  --watch           rebuild on every change; a failed build keeps the last good output\n" +
  "  --strict          OPA's strict mode, and the warnings are errors";

/** The command line that regenerates the outputs (the header names it). */
function commandLine(paths: readonly string[], entrypoints: readonly string[], values: { output: string; schema?: string | undefined; v0: boolean; target: BuildTarget }): string {
  const quote = (s: string) => (/^[\w./@:-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
  const parts = ["regoc build", ...paths.map(quote), ...entrypoints.flatMap((e) => ["-e", quote(e)]), "-o", quote(values.output)];
  if (values.schema !== undefined) parts.push("--schema", quote(values.schema));
  if (values.v0) parts.push("--v0-compatible");
  if (values.target !== "ts") parts.push("--target", values.target);
  return parts.join(" ");
}

/** `--target bundle`: the policy checked and planned for the entrypoints (errors as for any
 * target), then `<dir>/bundle.tar.gz` holding each path's .rego and data files (a directory's at
 * their place below it, a file at the top), a .manifest with --revision, and .signatures.json with
 * --signing-key. */
async function buildBundle(options: BuildOptions, flags: SigningFlags & { revision?: string | undefined }, io: BuildIO = processIO): Promise<number> {
  const checked = buildOutputs({ ...options, target: "plan" });
  io.err(formatDiagnostics(checked.errors, checked.warnings, checked.sources));
  if (checked.errors.length > 0) return 1;
  const cwd = options.cwd ?? process.cwd();
  const files = new Map<string, Buffer>();
  for (const arg of options.paths) {
    const root = resolve(cwd, arg);
    const entries = statSync(root).isDirectory() ? readBundleDir(root) : new Map([[`/${basename(root)}`, readFileSync(root)]]);
    for (const [path, content] of entries) {
      const name = path.slice(path.lastIndexOf("/") + 1);
      if (!name.endsWith(".rego") && !DATA_FILES.includes(name)) continue;
      if (files.has(path)) throw fileError(arg, `${path} is already in the bundle from another path`);
      files.set(path, content);
    }
  }
  if (flags.revision !== undefined) files.set("/.manifest", Buffer.from(`${JSON.stringify({ revision: flags.revision })}\n`));
  if (flags["signing-key"] !== undefined) files.set("/.signatures.json", Buffer.from(await signFiles(files, flags)));
  const out = join(options.outDir, "bundle.tar.gz");
  writeModuleSync(resolve(cwd, out), bundleArchive(files));
  io.out(`wrote ${out} (${files.size} files${flags["signing-key"] !== undefined ? ", signed" : ""})\n`);
  return 0;
}

const command: CliCommand = {
  summary: "compile Rego ahead of time into one typed module per package (TypeScript, JavaScript or plan JSON)",
  usage: USAGE,
  async run(argv) {
    const { values, positionals } = parseArgs({
      args: argv,
      options: {
        entrypoint: { type: "string", short: "e", multiple: true },
        output: { type: "string", short: "o" },
        schema: { type: "string", short: "s" },
        target: { type: "string", short: "t", default: "ts" },
        "v0-compatible": { type: "boolean", default: false },
        check: { type: "boolean", default: false },
        watch: { type: "boolean", default: false },
        strict: { type: "boolean", default: false },
        revision: { type: "string" },
        ...SIGNING_OPTIONS,
      },
      allowPositionals: true,
      strict: true,
    });
    const entrypoints = values.entrypoint ?? [];
    if (positionals.length === 0 || entrypoints.length === 0 || values.output === undefined) {
      throw usageError(USAGE.split("\n")[0]!);
    }
    const target = values.target;
    if (target === "bundle") {
      if (values.check || values.watch) throw usageError("--check and --watch are not available with --target bundle");
      return buildBundle({ paths: positionals, entrypoints, outDir: values.output, v0Compatible: values["v0-compatible"] === true, strict: values.strict === true, command: "", ...(values.schema !== undefined ? { schema: values.schema } : {}) }, values);
    }
    if (values["signing-key"] !== undefined || values.revision !== undefined) throw usageError("--signing-key and --revision go with --target bundle");
    if (target !== "ts" && target !== "js" && target !== "plan") throw usageError(`--target must be ts, js, plan or bundle, not ${JSON.stringify(target)}`);
    if (values.check && values.watch) throw usageError("--check and --watch do not go together");
    const v0 = values["v0-compatible"] === true;
    const options: BuildOptions = {
      paths: positionals,
      entrypoints,
      outDir: values.output,
      v0Compatible: v0,
      strict: values.strict === true,
      target,
      command: commandLine(positionals, entrypoints, { output: values.output, schema: values.schema, v0, target }),
    };
    if (values.schema !== undefined) options.schema = values.schema;
    if (!values.watch) return runBuild(options, { check: values.check === true });
    const watch = await watchBuild(options);
    await new Promise<void>((done) => {
      process.once("SIGINT", done);
      process.once("SIGTERM", done);
    });
    await watch.close();
    return 0;
  },
};

export default command;
