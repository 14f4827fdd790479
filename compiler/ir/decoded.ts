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
// left to the copying decoder. (Not by name, each with an own-property check: hot, see
// bench/frontend.bench.ts.)
//
// The *Shell variants check the same but leave out the statements inside blocks: validate.ts's
// combined walk (isValidDecoded) checks each statement's shape on its way down instead, so a
// plan is walked once for both checks.
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

/** A statement field; nested blocks are checked in full when `deep`, else only as block shells
 * (their statements left to the caller's walk, see isBlockShell). */
function isDecodedField(kind: FieldKind, v: unknown, deep: boolean): boolean {
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
      return deep ? isDecodedBlock(v) : isBlockShell(v);
    case "blocks?":
      return isArrayOf(v, deep ? isDecodedBlock : isBlockShell);
    case "locals?":
      return isArrayOf(v, isLocal);
    case "operands?":
      return isArrayOf(v, isOperand);
    case "ints?":
      return isArrayOf(v, isUint);
  }
}

/** Each statement type's fields: their names and kinds, in the same order. Looked up by a scan
 * of the few names (pointer comparisons of property names) rather than a map per field. */
interface FieldList {
  names: readonly string[];
  kinds: readonly FieldKind[];
}

const FIELD_LISTS = new Map<string, FieldList>(
  Object.entries(STMT_FIELDS).map(([t, fields]) => [t, { names: Object.keys(fields), kinds: Object.values(fields) }]),
);

function isDecodedStmt(v: unknown): boolean {
  return isStmtShape(v, true);
}

/** Whether `v` is a statement in the decoded shape, except that the statements of its nested
 * blocks are not looked at (validate.ts's combined walk checks them on its way down). */
export function isDecodedStmtShell(v: unknown): boolean {
  return isStmtShape(v, false);
}

function isStmtShape(v: unknown, deep: boolean): boolean {
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
  const fields = typeof type === "string" ? FIELD_LISTS.get(type) : undefined;
  if (n !== 2 || fields === undefined || !isPlain(body)) return false;
  const names = fields.names;
  let keys = 0;
  let hasIndex = false;
  next: for (const k in body) {
    keys++;
    const x = body[k];
    if (k === "file" || k === "row" || k === "col") {
      if (!isUint(x)) return false;
      continue;
    }
    for (let i = 0; i < names.length; i++) {
      if (names[i] === k) {
        if (!isDecodedField(fields.kinds[i]!, x, deep)) return false;
        continue next;
      }
    }
    if (k === "Index" && type === "MakeNumberRefStmt") hasIndex = true;
    else return false;
  }
  if (keys !== 3 + names.length + (hasIndex ? 1 : 0)) return false;
  return !hasIndex || body.Index === body.index;
}

function isDecodedBlock(v: unknown): boolean {
  return isBlockShell(v) && isArrayOf(v.stmts, isDecodedStmt);
}

/** Whether `v` is a block in the decoded shape (exactly `stmts`, an array), its statements not
 * looked at. */
export function isBlockShell(v: unknown): v is { stmts: unknown[] } {
  if (!isPlain(v)) return false;
  let n = 0;
  for (const k in v) {
    if (k !== "stmts" || !Array.isArray(v[k])) return false;
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

function isPlanShell(v: unknown): boolean {
  return hasExactly(v, ["name", "blocks"], (k, x) => (k === "name" ? isString(x) : isArrayOf(x, isBlockShell)));
}

function isDecodedFuncField(k: string, x: unknown): boolean {
  return k === "blocks" ? isArrayOf(x, isDecodedBlock) : isFuncShellField(k, x);
}

function isFuncShellField(k: string, x: unknown): boolean {
  switch (k) {
    case "name":
      return isString(x);
    case "params":
      return isArrayOf(x, isLocal);
    case "return":
      return isLocal(x);
    case "blocks":
      return isArrayOf(x, isBlockShell);
    default: // path
      return isArrayOf(x, isString);
  }
}

function isDecodedFunc(v: unknown): boolean {
  return hasExactly(v, ["name", "params", "return", "blocks", "path"], isDecodedFuncField);
}

/** Whether `v` is a plan in the decoded shape, which decodePolicy would copy field for field. */
export function isDecoded(v: unknown): v is Policy {
  return isPolicyShape(v, isDecodedPlan, isDecodedFunc);
}

/** isDecoded except that the statements of the plans' and funcs' blocks are not looked at: what
 * validate.ts's combined walk checks before it walks the blocks (with isDecodedStmtShell). */
export function isDecodedShell(v: unknown): v is Policy {
  return isPolicyShape(v, isPlanShell, isFuncShell);
}

function isFuncShell(v: unknown): boolean {
  return hasExactly(v, ["name", "params", "return", "blocks", "path"], isFuncShellField);
}

function isPolicyShape(v: unknown, isPlan: (x: unknown) => boolean, isFunc: (x: unknown) => boolean): boolean {
  if (!prototypeIsClean()) return false;
  return hasExactly(v, ["static", "plans", "funcs"], (k, x) => {
    switch (k) {
      case "static":
        return hasExactly(x, ["strings", "builtin_funcs", "files"], (k2, y) =>
          k2 === "builtin_funcs" ? isArrayOf(y, isDecodedBuiltin) : isArrayOf(y, isStringConst),
        );
      case "plans":
        return hasExactly(x, ["plans"], (_, y) => isArrayOf(y, isPlan));
      default: // funcs
        return hasExactly(x, ["funcs"], (_, y) => isArrayOf(y, isFunc));
    }
  });
}
