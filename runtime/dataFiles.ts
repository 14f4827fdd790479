// Data files (`.json`, `.yaml`, `.yml`) as OPA's loader reads them, for every place regoc reads
// them: `regoc test`/`eval`, the hot reloader and bundle archives. A file is decoded with OPA's
// decoders (JSON with exact numbers; YAML 1.1 as go-yaml, an empty document being null) and placed
// at the path of its directory: OPA wraps the value in one object per directory segment and merges
// that into `data` (v1/loader makeDir + internal/merge.InterfaceMaps; the bundle reader's mktree
// does the same). So `x/data.yaml` holding nothing is `data.x = null`, `x/data.json` holding `[1,2]`
// is `data.x = [1,2]`, a file at the root must hold an object, and two files that put values at one
// key conflict unless both are objects (which merge key by key). No node: imports: the runtime index
// stays loadable in browsers.
import { RegoError } from "./errors.js";
import { yamlUnmarshal } from "./builtins/yaml.js";
import { fromJSONText } from "./value/json.js";
import { isPlainObject, newPlainObject, setOwn, type PlainObject, type Value } from "./value/value.js";

/** What went wrong with a file: its text does not decode, or its value does not fit `data`. */
export type DataFileProblem = "parse" | "merge";

/** Builds the caller's error (each caller has its own code and prefix) for a file's problem. */
export type DataFileError = (problem: DataFileProblem, file: string, message: string, cause?: unknown) => RegoError;

/** True for the file names the loaders read as data (`.json`, `.yaml`, `.yml`). */
export function isDataFileName(name: string): boolean {
  return /\.(json|ya?ml)$/.test(name);
}

/** The value of a data file's text; `.json` files are JSON, the others YAML. `exact: false` reads
 * JSON numbers as doubles (faster), for a caller that stores plain JSON anyway. */
export function parseDataFile(file: string, text: string, error: DataFileError, options: { exact?: boolean } = {}): Value {
  try {
    if (!file.endsWith(".json")) return yamlUnmarshal(text);
    return options.exact === false ? (JSON.parse(text) as Value) : fromJSONText(text, "JSON");
  } catch (e) {
    const message = (e as Error).message.replace(/^JSON: /, "");
    throw error("parse", file, message, e);
  }
}

/** Puts a file's value into `data` at `dir` (the file's directory segments), merging objects. */
export function mergeDataFile(data: PlainObject, dir: readonly string[], value: Value, file: string, error: DataFileError): void {
  if (dir.length === 0) {
    if (!isPlainObject(value)) throw error("merge", file, "document must be of type object");
    mergeInto(data, value, [], file, error);
    return;
  }
  let node = data;
  for (let i = 0; i < dir.length - 1; i++) {
    const key = dir[i]!;
    const next = Object.hasOwn(node, key) ? node[key] : undefined;
    if (next === undefined) {
      const child = newPlainObject();
      setOwn(node, key, child);
      node = child;
    } else if (isPlainObject(next)) node = next;
    else throw conflict(dir.slice(0, i + 1), file, error);
  }
  const wrapped = newPlainObject();
  setOwn(wrapped, dir[dir.length - 1]!, value);
  mergeInto(node, wrapped, dir.slice(0, -1), file, error);
}

function mergeInto(target: PlainObject, source: PlainObject, path: readonly string[], file: string, error: DataFileError): void {
  for (const key of Object.keys(source)) {
    const incoming = source[key]!;
    if (!Object.hasOwn(target, key)) {
      setOwn(target, key, incoming); // own even for "__proto__"
      continue;
    }
    const here = target[key]!;
    if (isPlainObject(here) && isPlainObject(incoming)) mergeInto(here, incoming, [...path, key], file, error);
    else throw conflict([...path, key], file, error);
  }
}

function conflict(path: readonly string[], file: string, error: DataFileError): RegoError {
  return error("merge", file, `merge error: data.${path.join(".")} is defined by more than one file`);
}
