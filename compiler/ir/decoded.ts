// Plans already in the decoded shape: decodePolicy's fast path (decode.ts). A plan our planner
// produced is already what decodePolicy would build: copying it (a great many small objects) is
// the whole cost of decoding. isDecoded checks, without allocating, that every object holds
// exactly the fields decodePolicy reads (own properties, no others), each passing the same check
// as in the copying decoder, with nothing to default: no null or missing arrays, location fields
// present, `index` (not only `Index`), no `unplanned_rules`. Anything else goes through the
// copying decoder, which also names the JSON path of an error. One leniency: a MakeNumberRefStmt
// may also carry OPA's `Index` when it equals `index` (our planner writes both).
//
// The objects are read with for-in, one pass over their keys: every key must be one the object
// should have (then, with the count right, all of them are there) and its value must pass. That
// needs for-in to list own properties only, so it is used only on plain objects (prototype
// Object.prototype or null) while Object.prototype has no enumerable properties; anything else is
// left to the copying decoder. (Reading the fields by name instead, each with an own-property
// check, cost about a third more: a plan has millions of fields.)
import { MAX_LOCAL, STMT_FIELDS, type FieldKind } from "./fields.js";
import type { Policy } from "./types.js";

type Json = Record<string, unknown>;

function isRecord(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** An object whose for-in keys are its own enumerable keys (see above). */
function isPlain(v: unknown): v is Json {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** Whether Object.prototype has no enumerable properties (checked once per plan). */
function prototypeIsClean(): boolean {
  for (const _ in Object.prototype) return false;
  return true;
}

function isLocal(v: unknown): boolean {
  return typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= MAX_LOCAL;
}

function isUint(v: unknown): boolean {
  return typeof v === "number" && Number.isSafeInteger(v) && v >= 0;
}

function isOperand(v: unknown): boolean {
  if (!isPlain(v)) return false;
  let n = 0;
  let type: unknown;
  let value: unknown;
  for (const k in v) {
    n++;
    if (k === "type") type = v[k];
    else if (k === "value") value = v[k];
    else return false;
  }
  if (n !== 2) return false;
  switch (type) {
    case "local":
      return isLocal(value);
    case "bool":
      return typeof value === "boolean";
    case "string_index":
      return isUint(value);
    default:
      return false;
  }
}

function isArrayOf(v: unknown, ok: (x: unknown) => boolean): boolean {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (!ok(v[i])) return false;
  return true;
}

function isDecodedField(kind: FieldKind, v: unknown): boolean {
  switch (kind) {
    case "local":
      return isLocal(v);
    case "operand":
      return isOperand(v);
    case "int":
      return typeof v === "number" && Number.isInteger(v);
    case "uint":
      return isUint(v);
    case "string":
      return typeof v === "string";
    case "block":
      return isDecodedBlock(v);
    case "blocks?":
      return isArrayOf(v, isDecodedBlock);
    case "locals?":
      return isArrayOf(v, isLocal);
    case "operands?":
      return isArrayOf(v, isOperand);
    case "ints?":
      return isArrayOf(v, isUint);
  }
}

/** Each statement type's fields: name → kind. */
const FIELD_KINDS = new Map<string, ReadonlyMap<string, FieldKind>>(Object.entries(STMT_FIELDS).map(([t, fields]) => [t, new Map(Object.entries(fields))]));

function isDecodedStmt(v: unknown): boolean {
  if (!isPlain(v)) return false;
  let n = 0;
  let type: unknown;
  let body: unknown;
  for (const k in v) {
    n++;
    if (k === "type") type = v[k];
    else if (k === "stmt") body = v[k];
    else return false;
  }
  const fields = typeof type === "string" ? FIELD_KINDS.get(type) : undefined;
  if (n !== 2 || fields === undefined || !isPlain(body)) return false;
  let keys = 0;
  let hasIndex = false;
  for (const k in body) {
    keys++;
    const x = body[k];
    if (k === "file" || k === "row" || k === "col") {
      if (!isUint(x)) return false;
      continue;
    }
    const kind = fields.get(k);
    if (kind !== undefined) {
      if (!isDecodedField(kind, x)) return false;
    } else if (k === "Index" && type === "MakeNumberRefStmt") {
      hasIndex = true;
    } else {
      return false;
    }
  }
  if (keys !== 3 + fields.size + (hasIndex ? 1 : 0)) return false;
  return !hasIndex || body.Index === body.index;
}

function isDecodedBlock(v: unknown): boolean {
  if (!isPlain(v)) return false;
  let n = 0;
  for (const k in v) {
    if (k !== "stmts" || !isArrayOf(v[k], isDecodedStmt)) return false;
    n++;
  }
  return n === 1;
}

/** Whether `v` is a plain object with exactly the keys `names` (each once), each passing `ok`. */
function hasExactly(v: unknown, names: readonly string[], ok: (name: string, x: unknown) => boolean): boolean {
  if (!isPlain(v)) return false;
  let n = 0;
  for (const k in v) {
    if (!names.includes(k) || !ok(k, v[k])) return false;
    n++;
  }
  return n === names.length;
}

const isString = (x: unknown): boolean => typeof x === "string";

function isStringConst(v: unknown): boolean {
  return hasExactly(v, ["value"], (_, x) => isString(x));
}

function isDecodedBuiltin(v: unknown): boolean {
  return hasExactly(v, ["name", "decl"], (k, x) =>
    k === "name" ? isString(x) : isRecord(x) && (!Object.hasOwn(x, "result") || x.result === null || isRecord(x.result)),
  );
}

function isDecodedPlan(v: unknown): boolean {
  return hasExactly(v, ["name", "blocks"], (k, x) => (k === "name" ? isString(x) : isArrayOf(x, isDecodedBlock)));
}

function isDecodedFuncField(k: string, x: unknown): boolean {
  switch (k) {
    case "name":
      return isString(x);
    case "params":
      return isArrayOf(x, isLocal);
    case "return":
      return isLocal(x);
    case "blocks":
      return isArrayOf(x, isDecodedBlock);
    default: // path
      return isArrayOf(x, isString);
  }
}

function isDecodedFunc(v: unknown): boolean {
  return hasExactly(v, ["name", "params", "return", "blocks", "path"], isDecodedFuncField);
}

/** Whether `v` is a plan in the decoded shape, which decodePolicy would copy field for field. */
export function isDecoded(v: unknown): v is Policy {
  if (!prototypeIsClean()) return false;
  return hasExactly(v, ["static", "plans", "funcs"], (k, x) => {
    switch (k) {
      case "static":
        return hasExactly(x, ["strings", "builtin_funcs", "files"], (k2, y) =>
          k2 === "builtin_funcs" ? isArrayOf(y, isDecodedBuiltin) : isArrayOf(y, isStringConst),
        );
      case "plans":
        return hasExactly(x, ["plans"], (_, y) => isArrayOf(y, isDecodedPlan));
      default: // funcs
        return hasExactly(x, ["funcs"], (_, y) => isArrayOf(y, isDecodedFunc));
    }
  });
}
