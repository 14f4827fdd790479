// JSON → typed plan. Checks the shape of every field (a wrong type is refused with a
// `plan_invalid_error` naming the JSON path, e.g. `funcs.funcs[3].blocks[0].stmts[7].stmt.source:
// expected operand`) and tolerates what Go's encoder does: omitted or null arrays mean [],
// `static` may be omitted, MakeNumberRefStmt's index is `index ?? Index`, and location fields
// (plus newer ones such as end_row/end_col) sit inside `stmt`.
// Cross-references (locals, string indexes, funcs, builtins, break levels) are validate.ts's job.
import { RegoError } from "../../runtime/errors.js";
import type { Block, BuiltinFunc, Func, FunctionDecl, Operand, Plan, Policy, Stmt, StmtType, StringConst } from "./types.js";
import { STMT_TYPES } from "./types.js";

/** What a statement field holds. `?` suffix: null/absent decodes to []. */
export type FieldKind = "local" | "operand" | "int" | "uint" | "string" | "block" | "blocks?" | "locals?" | "operands?" | "ints?";

/** The fields of every statement type (location fields excluded). */
export const STMT_FIELDS: { readonly [T in StmtType]: Readonly<Record<string, FieldKind>> } = {
  ArrayAppendStmt: { array: "local", value: "operand" },
  AssignIntStmt: { value: "int", target: "local" },
  AssignVarOnceStmt: { source: "operand", target: "local" },
  AssignVarStmt: { source: "operand", target: "local" },
  BlockStmt: { blocks: "blocks?" },
  BreakStmt: { index: "uint" },
  CallDynamicStmt: { args: "locals?", path: "operands?", result: "local" },
  CallStmt: { func: "string", args: "operands?", result: "local" },
  DotStmt: { source: "operand", key: "operand", target: "local" },
  EqualStmt: { a: "operand", b: "operand" },
  IsArrayStmt: { source: "operand" },
  IsDefinedStmt: { source: "local" },
  IsObjectStmt: { source: "operand" },
  IsSetStmt: { source: "operand" },
  IsUndefinedStmt: { source: "local" },
  LenStmt: { source: "operand", target: "local" },
  MakeArrayStmt: { capacity: "int", target: "local" },
  MakeNullStmt: { target: "local" },
  MakeNumberIntStmt: { value: "int", target: "local" },
  MakeNumberRefStmt: { index: "uint", target: "local" },
  MakeObjectStmt: { target: "local" },
  MakeSetStmt: { target: "local" },
  NopStmt: {},
  NotEqualStmt: { a: "operand", b: "operand" },
  NotStmt: { block: "block" },
  ObjectInsertOnceStmt: { object: "local", key: "operand", value: "operand" },
  ObjectInsertStmt: { object: "local", key: "operand", value: "operand" },
  ObjectMergeStmt: { a: "local", b: "local", target: "local" },
  ResetLocalStmt: { target: "local" },
  ResultSetAddStmt: { value: "local" },
  ReturnLocalStmt: { source: "local" },
  ScanStmt: { source: "local", key: "local", value: "local", block: "block" },
  SetAddStmt: { set: "local", value: "operand" },
  WithStmt: { local: "local", path: "ints?", value: "operand", block: "block" },
};

/** Largest local index accepted (Go's int32 range; OPA allocates locals densely from 0). */
export const MAX_LOCAL = 0x7fffffff;

const stmtTypes = new Set<string>(STMT_TYPES);

export function invalid(path: string, message: string): RegoError {
  return new RegoError("plan_invalid_error", path ? `${path}: ${message}` : message);
}

type Json = Record<string, unknown>;

function isRecord(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function field(o: Json, key: string): unknown {
  return Object.hasOwn(o, key) ? o[key] : undefined;
}

function record(v: unknown, path: string): Json {
  if (!isRecord(v)) throw invalid(path, "expected object");
  return v;
}

/** An array; absent or null is [] when `nullable`. */
function list(v: unknown, path: string, nullable: boolean): unknown[] {
  if (v === undefined || v === null) {
    if (nullable) return [];
    throw invalid(path, "expected array");
  }
  if (!Array.isArray(v)) throw invalid(path, "expected array");
  return v;
}

function str(v: unknown, path: string): string {
  if (typeof v !== "string") throw invalid(path, "expected string");
  return v;
}

function int(v: unknown, path: string): number {
  if (typeof v !== "number" || !Number.isInteger(v)) throw invalid(path, "expected integer");
  return v;
}

function uint(v: unknown, path: string): number {
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0) throw invalid(path, "expected non-negative integer");
  return v;
}

function local(v: unknown, path: string): number {
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0 || v > MAX_LOCAL) throw invalid(path, "expected local");
  return v;
}

function operand(v: unknown, path: string): Operand {
  if (!isRecord(v)) throw invalid(path, "expected operand");
  const type = field(v, "type");
  const value = field(v, "value");
  switch (type) {
    case "local":
      return { type, value: local(value, `${path}.value`) };
    case "bool":
      if (typeof value !== "boolean") throw invalid(`${path}.value`, "expected boolean");
      return { type, value };
    case "string_index":
      return { type, value: uint(value, `${path}.value`) };
    default:
      throw invalid(`${path}.type`, "expected operand type local, bool or string_index");
  }
}

function decodeField(kind: FieldKind, v: unknown, path: string): unknown {
  switch (kind) {
    case "local":
      return local(v, path);
    case "operand":
      return operand(v, path);
    case "int":
      return int(v, path);
    case "uint":
      return uint(v, path);
    case "string":
      return str(v, path);
    case "block":
      return block(v, path);
    case "blocks?":
      return list(v, path, true).map((b, i) => block(b, `${path}[${i}]`));
    case "locals?":
      return list(v, path, true).map((l, i) => local(l, `${path}[${i}]`));
    case "operands?":
      return list(v, path, true).map((o, i) => operand(o, `${path}[${i}]`));
    case "ints?":
      return list(v, path, true).map((n, i) => uint(n, `${path}[${i}]`));
  }
}

function stmt(v: unknown, path: string): Stmt {
  const env = record(v, path);
  const type = field(env, "type");
  if (typeof type !== "string") throw invalid(`${path}.type`, "expected statement type");
  if (!stmtTypes.has(type)) throw invalid(`${path}.type`, `unknown statement type ${JSON.stringify(type)}`);
  const t = type as StmtType;
  const sp = `${path}.stmt`;
  const body = record(field(env, "stmt"), sp);
  const out: Record<string, unknown> = {
    file: optionalUint(field(body, "file"), `${sp}.file`),
    row: optionalUint(field(body, "row"), `${sp}.row`),
    col: optionalUint(field(body, "col"), `${sp}.col`),
  };
  const fields = STMT_FIELDS[t];
  for (const name of Object.keys(fields)) {
    let raw = field(body, name);
    if (t === "MakeNumberRefStmt" && name === "index") raw ??= field(body, "Index");
    out[name] = decodeField(fields[name]!, raw, `${sp}.${name}`);
  }
  return { type: t, stmt: out } as unknown as Stmt;
}

function optionalUint(v: unknown, path: string): number {
  return v === undefined || v === null ? 0 : uint(v, path);
}

function block(v: unknown, path: string): Block {
  const b = record(v, path);
  return { stmts: list(field(b, "stmts"), `${path}.stmts`, true).map((s, i) => stmt(s, `${path}.stmts[${i}]`)) };
}

function stringConsts(v: unknown, path: string): StringConst[] {
  return list(v, path, true).map((s, i) => ({ value: str(field(record(s, `${path}[${i}]`), "value"), `${path}[${i}].value`) }));
}

function builtinFunc(v: unknown, path: string): BuiltinFunc {
  const b = record(v, path);
  const name = str(field(b, "name"), `${path}.name`);
  const decl = record(field(b, "decl"), `${path}.decl`);
  if (Object.hasOwn(decl, "result") && decl.result !== null && !isRecord(decl.result)) {
    throw invalid(`${path}.decl.result`, "expected object");
  }
  return { name, decl: decl as unknown as FunctionDecl };
}

function plan(v: unknown, path: string): Plan {
  const p = record(v, path);
  return {
    name: str(field(p, "name"), `${path}.name`),
    blocks: list(field(p, "blocks"), `${path}.blocks`, true).map((b, i) => block(b, `${path}.blocks[${i}]`)),
  };
}

function func(v: unknown, path: string): Func {
  const f = record(v, path);
  return {
    name: str(field(f, "name"), `${path}.name`),
    params: list(field(f, "params"), `${path}.params`, true).map((l, i) => local(l, `${path}.params[${i}]`)),
    return: local(field(f, "return"), `${path}.return`),
    blocks: list(field(f, "blocks"), `${path}.blocks`, true).map((b, i) => block(b, `${path}.blocks[${i}]`)),
    path: list(field(f, "path"), `${path}.path`, true).map((s, i) => str(s, `${path}.path[${i}]`)),
  };
}

/** Decodes a plan given as parsed JSON or as JSON text. */
export function decodePolicy(input: unknown): Policy {
  let v = input;
  if (typeof v === "string") {
    try {
      v = JSON.parse(v);
    } catch (e) {
      throw invalid("", `plan is not valid JSON: ${(e as Error).message}`);
    }
  }
  const root = record(v, "plan");
  const rawStatic = field(root, "static");
  const st = rawStatic === undefined || rawStatic === null ? {} : record(rawStatic, "static");
  const rawPlans = field(root, "plans");
  const plans = rawPlans === undefined || rawPlans === null ? {} : record(rawPlans, "plans");
  const rawFuncs = field(root, "funcs");
  const funcs = rawFuncs === undefined || rawFuncs === null ? {} : record(rawFuncs, "funcs");
  const policy: Policy = {
    static: {
      strings: stringConsts(field(st, "strings"), "static.strings"),
      builtin_funcs: list(field(st, "builtin_funcs"), "static.builtin_funcs", true).map((b, i) =>
        builtinFunc(b, `static.builtin_funcs[${i}]`),
      ),
      files: stringConsts(field(st, "files"), "static.files"),
    },
    plans: { plans: list(field(plans, "plans"), "plans.plans", true).map((p, i) => plan(p, `plans.plans[${i}]`)) },
    funcs: { funcs: list(field(funcs, "funcs"), "funcs.funcs", true).map((f, i) => func(f, `funcs.funcs[${i}]`)) },
  };
  const unplanned = field(root, "unplanned_rules");
  if (unplanned !== undefined && unplanned !== null) {
    policy.unplanned_rules = list(unplanned, "unplanned_rules", true).map((u, i) => {
      const r = record(u, `unplanned_rules[${i}]`);
      return { path: str(field(r, "path"), `unplanned_rules[${i}].path`), location: field(r, "location") };
    });
  }
  return policy;
}
