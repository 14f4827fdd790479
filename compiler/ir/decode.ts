// JSON → typed plan. Checks the shape of every field (a wrong type is refused with a
// `plan_invalid_error` naming the JSON path, e.g. `funcs.funcs[3].blocks[0].stmts[7].stmt.source:
// expected operand`) and tolerates what Go's encoder does: omitted or null arrays mean [],
// `static` may be omitted, MakeNumberRefStmt's index is `index ?? Index`, and location fields
// (plus newer ones such as end_row/end_col) sit inside `stmt`.
// Cross-references (locals, string indexes, funcs, builtins, break levels) are validate.ts's job.
import { RegoError } from "../../runtime/errors.js";
import type { Block, BuiltinFunc, Func, FunctionDecl, Operand, Plan, Policy, Stmt, StmtType, StringConst } from "./types.js";
import { STMT_TYPES } from "./types.js";
import { isDecoded } from "./decoded.js";
import { MAX_LOCAL, STMT_FIELDS, type FieldKind } from "./fields.js";

export { isDecoded } from "./decoded.js";
export { MAX_LOCAL, STMT_FIELDS, type FieldKind } from "./fields.js";

const stmtTypes = new Set<string>(STMT_TYPES);

export function invalid(path: string, message: string): RegoError {
  return new RegoError("plan_invalid_error", path ? `${path}: ${message}` : message);
}

type Json = Record<string, unknown>;

/** A JSON path (`funcs.funcs[3].blocks[0].stmts[7].stmt.source`), rendered only for an error
 * message: a plan has a great many fields. */
class Path {
  constructor(
    private readonly parent: Path | null,
    private readonly seg: string,
    private readonly index = -1,
  ) {}

  toString(): string {
    const base = this.parent === null ? "" : this.parent.toString();
    return this.index < 0 ? base + this.seg : `${base}${this.seg}[${this.index}]`;
  }
}

/** `parent` + `seg` (+ `[index]`). */
function at(parent: Path, seg: string, index = -1): Path {
  return new Path(parent, seg, index);
}

function fail(path: Path, message: string): RegoError {
  return invalid(path.toString(), message);
}

function isRecord(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function field(o: Json, key: string): unknown {
  return Object.hasOwn(o, key) ? o[key] : undefined;
}

function record(v: unknown, path: Path): Json {
  if (!isRecord(v)) throw fail(path, "expected object");
  return v;
}

/** An array; absent or null is [] when `nullable`. */
function list(v: unknown, path: Path, nullable: boolean): unknown[] {
  if (v === undefined || v === null) {
    if (nullable) return [];
    throw fail(path, "expected array");
  }
  if (!Array.isArray(v)) throw fail(path, "expected array");
  return v;
}

/** Decodes each element of a list (`path[i]` names element i). */
function each<T>(v: unknown, path: Path, decode: (x: unknown, path: Path) => T): T[] {
  const xs = list(v, path, true);
  const out: T[] = new Array<T>(xs.length);
  for (let i = 0; i < xs.length; i++) out[i] = decode(xs[i], at(path, "", i));
  return out;
}

// Leaf decoders take the parent's path and their own segment, joined only on error.

function str(v: unknown, path: Path, seg = ""): string {
  if (typeof v !== "string") throw fail(at(path, seg), "expected string");
  return v;
}

function int(v: unknown, path: Path, seg = ""): number {
  if (typeof v !== "number" || !Number.isInteger(v)) throw fail(at(path, seg), "expected integer");
  return v;
}

function uint(v: unknown, path: Path, seg = ""): number {
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0) throw fail(at(path, seg), "expected non-negative integer");
  return v;
}

function local(v: unknown, path: Path, seg = ""): number {
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0 || v > MAX_LOCAL) throw fail(at(path, seg), "expected local");
  return v;
}

function operand(v: unknown, parent: Path, seg = ""): Operand {
  if (!isRecord(v)) throw fail(at(parent, seg), "expected operand");
  const type = field(v, "type");
  const value = field(v, "value");
  switch (type) {
    case "local":
      if (typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= MAX_LOCAL) return { type, value };
      return { type, value: local(value, at(parent, seg), ".value") };
    case "bool":
      if (typeof value !== "boolean") throw fail(at(at(parent, seg), ".value"), "expected boolean");
      return { type, value };
    case "string_index":
      return { type, value: uint(value, at(parent, seg), ".value") };
    default:
      throw fail(at(at(parent, seg), ".type"), "expected operand type local, bool or string_index");
  }
}

/** A statement field; `seg` is its `.name`, joined to `parent` only when needed. */
function decodeField(kind: FieldKind, v: unknown, parent: Path, seg: string): unknown {
  switch (kind) {
    case "local":
      return local(v, parent, seg);
    case "operand":
      return operand(v, parent, seg);
    case "int":
      return int(v, parent, seg);
    case "uint":
      return uint(v, parent, seg);
    case "string":
      return str(v, parent, seg);
    case "block":
      return block(v, at(parent, seg));
    case "blocks?":
      return each(v, at(parent, seg), block);
    case "locals?":
      return each(v, at(parent, seg), local);
    case "operands?":
      return each(v, at(parent, seg), operand);
    case "ints?":
      return each(v, at(parent, seg), uint);
  }
}

/** Each statement type's fields as [name, kind, path segment], made once. */
const FIELD_LISTS = new Map<string, ReadonlyArray<readonly [string, FieldKind, string]>>(
  Object.entries(STMT_FIELDS).map(([t, fields]) => [t, Object.entries(fields).map(([name, kind]) => [name, kind, `.${name}`] as const)]),
);

function stmt(v: unknown, path: Path): Stmt {
  const env = record(v, path);
  const type = field(env, "type");
  if (typeof type !== "string") throw fail(at(path, ".type"), "expected statement type");
  if (!stmtTypes.has(type)) throw fail(at(path, ".type"), `unknown statement type ${JSON.stringify(type)}`);
  const t = type as StmtType;
  const sp = at(path, ".stmt");
  const body = record(field(env, "stmt"), sp);
  const out: Record<string, unknown> = {
    file: optionalUint(field(body, "file"), sp, ".file"),
    row: optionalUint(field(body, "row"), sp, ".row"),
    col: optionalUint(field(body, "col"), sp, ".col"),
  };
  for (const [name, kind, seg] of FIELD_LISTS.get(t)!) {
    let raw = field(body, name);
    if (t === "MakeNumberRefStmt" && name === "index") raw ??= field(body, "Index");
    out[name] = decodeField(kind, raw, sp, seg);
  }
  return { type: t, stmt: out } as unknown as Stmt;
}

function optionalUint(v: unknown, path: Path, seg: string): number {
  return v === undefined || v === null ? 0 : uint(v, path, seg);
}

function block(v: unknown, path: Path): Block {
  const b = record(v, path);
  return { stmts: each(field(b, "stmts"), at(path, ".stmts"), stmt) };
}

function stringConst(v: unknown, path: Path): StringConst {
  return { value: str(field(record(v, path), "value"), path, ".value") };
}

function builtinFunc(v: unknown, path: Path): BuiltinFunc {
  const b = record(v, path);
  const name = str(field(b, "name"), path, ".name");
  const decl = record(field(b, "decl"), at(path, ".decl"));
  if (Object.hasOwn(decl, "result") && decl.result !== null && !isRecord(decl.result)) {
    throw fail(at(path, ".decl.result"), "expected object");
  }
  return { name, decl: decl as unknown as FunctionDecl };
}

function plan(v: unknown, path: Path): Plan {
  const p = record(v, path);
  return {
    name: str(field(p, "name"), path, ".name"),
    blocks: each(field(p, "blocks"), at(path, ".blocks"), block),
  };
}

function func(v: unknown, path: Path): Func {
  const f = record(v, path);
  return {
    name: str(field(f, "name"), path, ".name"),
    params: each(field(f, "params"), at(path, ".params"), local),
    return: local(field(f, "return"), path, ".return"),
    blocks: each(field(f, "blocks"), at(path, ".blocks"), block),
    path: each(field(f, "path"), at(path, ".path"), str),
  };
}

const root = (name: string): Path => new Path(null, name);

/** Decodes a plan given as parsed JSON or as JSON text. A plan already in the decoded shape (see
 * isDecoded: what our planner produces) is returned as it is, not copied. */
export function decodePolicy(input: unknown): Policy {
  return decodeParsed(parsePlanText(input));
}

/** The plan as parsed JSON: JSON text parsed, anything else as it is. */
export function parsePlanText(input: unknown): unknown {
  if (typeof input !== "string") return input;
  try {
    return JSON.parse(input);
  } catch (e) {
    throw invalid("", `plan is not valid JSON: ${(e as Error).message}`);
  }
}

/** decodePolicy of parsed JSON (a string is not parsed again: it is not a plan). */
export function decodeParsed(v: unknown): Policy {
  if (isDecoded(v)) return v;
  const top = record(v, root("plan"));
  const rawStatic = field(top, "static");
  const st = rawStatic === undefined || rawStatic === null ? {} : record(rawStatic, root("static"));
  const rawPlans = field(top, "plans");
  const plans = rawPlans === undefined || rawPlans === null ? {} : record(rawPlans, root("plans"));
  const rawFuncs = field(top, "funcs");
  const funcs = rawFuncs === undefined || rawFuncs === null ? {} : record(rawFuncs, root("funcs"));
  const policy: Policy = {
    static: {
      strings: each(field(st, "strings"), root("static.strings"), stringConst),
      builtin_funcs: each(field(st, "builtin_funcs"), root("static.builtin_funcs"), builtinFunc),
      files: each(field(st, "files"), root("static.files"), stringConst),
    },
    plans: { plans: each(field(plans, "plans"), root("plans.plans"), plan) },
    funcs: { funcs: each(field(funcs, "funcs"), root("funcs.funcs"), func) },
  };
  const unplanned = field(top, "unplanned_rules");
  if (unplanned !== undefined && unplanned !== null) {
    policy.unplanned_rules = each(unplanned, root("unplanned_rules"), (u, path) => {
      const r = record(u, path);
      return { path: str(field(r, "path"), path, ".path"), location: field(r, "location") };
    });
  }
  return policy;
}
