// Every builtin of OPA's categories, loaded by need. The index (catalogIndex.ts, generated from the
// category files by scripts/gen-builtin-index.ts) says which category holds each builtin and which
// are async, without loading any implementation: what the compiler asks. A category's builtins are
// loaded by `import()` of its file (bundlers follow each and keep it apart) and registered in the
// one registry (registry.ts) once loaded: the live loader loads the categories a module calls
// before the module runs (loadBuiltins), so a server compiling policies loads only the builtins
// they call. A generated module imports its categories itself (`regoc/builtins/<category>`).
import { RegoError } from "../errors.js";
import { internalError } from "../eval/ops.js";
import { ASYNC_BUILTINS, BUILTINS_BY_CATEGORY } from "./catalogIndex.js";
import { addBuiltins, getBuiltin, registeredNames, type BuiltinTable } from "./registry.js";

// Categories, one file each, named after OPA's categories; add new categories here (and run
// `npm run gen-builtin-index`). A category's file is runtime/builtins/<category>.ts and exports its
// table as `<category>Builtins`.
const LOADERS: Readonly<Record<string, () => Promise<BuiltinTable>>> = {
  comparison: async () => (await import("./comparison.js")).comparisonBuiltins,
  arithmetic: async () => (await import("./arithmetic.js")).arithmeticBuiltins,
  bits: async () => (await import("./bits.js")).bitsBuiltins,
  aggregates: async () => (await import("./aggregates.js")).aggregatesBuiltins,
  sets: async () => (await import("./sets.js")).setsBuiltins,
  arrays: async () => (await import("./arrays.js")).arraysBuiltins,
  objects: async () => (await import("./objects.js")).objectsBuiltins,
  types: async () => (await import("./types.js")).typesBuiltins,
  casts: async () => (await import("./casts.js")).castsBuiltins,
  internal: async () => (await import("./internal.js")).internalBuiltins,
  graphs: async () => (await import("./graphs.js")).graphsBuiltins,
  strings: async () => (await import("./strings.js")).stringsBuiltins,
  encoding: async () => (await import("./encoding.js")).encodingBuiltins,
  json: async () => (await import("./json.js")).jsonBuiltins,
  yaml: async () => (await import("./yaml.js")).yamlBuiltins,
  units: async () => (await import("./units.js")).unitsBuiltins,
  semver: async () => (await import("./semver.js")).semverBuiltins,
  uuid: async () => (await import("./uuid.js")).uuidBuiltins,
  rand: async () => (await import("./rand.js")).randBuiltins,
  regex: async () => (await import("./regex.js")).regexBuiltins,
  glob: async () => (await import("./glob.js")).globBuiltins,
  templates: async () => (await import("./templates.js")).templatesBuiltins,
  time: async () => (await import("./time.js")).timeBuiltins,
  crypto: async () => (await import("./crypto.js")).cryptoBuiltins,
  jwt: async () => (await import("./jwt.js")).jwtBuiltins,
  providers: async () => (await import("./providers.js")).providersBuiltins,
  net: async () => (await import("./net.js")).netBuiltins,
  http: async () => (await import("./http.js")).httpBuiltins,
  graphql: async () => (await import("./graphql.js")).graphqlBuiltins,
  jsonschema: async () => (await import("./jsonschema.js")).jsonschemaBuiltins,
  rego: async () => (await import("./rego.js")).regoBuiltins,
  opa: async () => (await import("./opa.js")).opaBuiltins,
};

/** The category names (each a module `regoc/builtins/<name>` exporting `<name>Builtins`). */
export const CATEGORIES: readonly string[] = Object.freeze(Object.keys(LOADERS));

const categoryOf = new Map<string, string>();
for (const [category, names] of Object.entries(BUILTINS_BY_CATEGORY)) for (const name of names) categoryOf.set(name, category);
const asyncNames = new Set(ASYNC_BUILTINS);

/** The category of one of OPA's builtins; undefined for custom ones (and unknown names). */
export function builtinCategory(name: string): string | undefined {
  return categoryOf.get(name);
}

/** Whether `name` is a builtin: one of OPA's (loaded or not) or a registered custom one. */
export function isBuiltin(name: string): boolean {
  return categoryOf.has(name) || getBuiltin(name) !== undefined;
}

/** Whether calls of `name` return a Promise (plans that call it get async entrypoints). */
export function isAsyncBuiltin(name: string): boolean {
  return asyncNames.has(name) || getBuiltin(name)?.async === true;
}

/** Every builtin's name, OPA's and registered custom ones, sorted. */
export function builtinNames(): string[] {
  return [...new Set([...categoryOf.keys(), ...registeredNames()])].sort();
}

const loading = new Map<string, Promise<BuiltinTable>>();

/** A category's table, loaded (and registered) on first use. */
export function loadCategory(category: string): Promise<BuiltinTable> {
  if (!Object.hasOwn(LOADERS, category)) return Promise.reject(internalError(`no builtin category ${JSON.stringify(category)}`));
  let table = loading.get(category);
  if (table === undefined) {
    table = LOADERS[category]!().then((t) => {
      addBuiltins(t, false);
      return t;
    });
    table.catch(() => loading.delete(category));
    loading.set(category, table);
  }
  return table;
}

/** Loads the categories of the named builtins (custom ones and unknown names need nothing). */
export async function loadBuiltins(names: Iterable<string>): Promise<void> {
  const categories = new Set<string>();
  for (const name of names) {
    const category = categoryOf.get(name);
    if (category !== undefined) categories.add(category);
  }
  await Promise.all([...categories].map(loadCategory));
}

/** Loads every category (a caller that invokes builtins by name, as `regoc builtins` or a test). */
export async function loadAllBuiltins(): Promise<void> {
  await Promise.all(CATEGORIES.map(loadCategory));
}

/** Categories loaded so far. */
export function loadedCategories(): string[] {
  return CATEGORIES.filter((c) => loading.has(c));
}

/**
 * Adds application-defined builtins; a name that clashes with an existing builtin (one of OPA's,
 * loaded or not, or another custom one) is refused. Returns a function that removes them again.
 * Generated modules look their builtins up when they are loaded: register before compiling the
 * policies that call them.
 */
export function registerBuiltins(table: BuiltinTable): () => void {
  return addBuiltins(table, true, (name) => categoryOf.has(name));
}

/** The error for builtins a policy calls that this runtime does not implement. */
export function missingBuiltinsError(missing: readonly string[]): RegoError {
  return new RegoError("rego_compile_error", `missing builtin implementation${missing.length > 1 ? "s" : ""}: ${missing.join(", ")}`, undefined, {
    details: { missingBuiltins: missing },
  });
}
