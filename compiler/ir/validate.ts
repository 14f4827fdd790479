// Cross-reference checks on a decoded plan. Everything the code generator relies on is checked
// here, so a malformed plan is refused with a `plan_invalid_error` naming the JSON path instead of
// producing code that crashes: string and file indexes in range, number literals that parse,
// calls to known funcs (with the right number of arguments) or to builtins declared in
// `static.builtin_funcs`, break indexes within the enclosing levels (CallDynamicStmt needs 3),
// ResultSetAddStmt only in plans and ReturnLocalStmt only in funcs, unique names, distinct params,
// and no in-place mutation of a plan's input/data locals or of a func's params.
import type { RegoError } from "../../runtime/errors.js";
import { numberFromText } from "../../runtime/value/number.js";
import { invalid } from "./decode.js";
import { isDecodedShell, isDecodedStmtShell } from "./decoded.js";
import type { Block, BuiltinFunc, CallStmt, Operand, Policy, Stmt, StringConst } from "./types.js";
import { FuncPaths } from "./walk.js";
import { assertNever } from "../../runtime/errors.js";

/** Validates a decoded policy; throws RegoError("plan_invalid_error") on the first problem. */
export function validatePolicy(policy: Policy): void {
  check(policy, false);
}

/** Thrown by the combined walk at the first object not in the decoded shape. */
const NOT_DECODED = new Error("not in the decoded shape");

/** Whether `v` is in the decoded shape (decoded.ts's isDecoded) and valid (validatePolicy), found
 * in one walk over its statements instead of two: each statement's shape is checked just before
 * its cross-references. A plan our planner made passes both, and it is walked once; at the first
 * problem of either kind this answers false and leaves the error to the two separate checks
 * (prepare.ts), so what is reported, and in which order, stays theirs. */
export function isValidDecoded(v: unknown): v is Policy {
  if (!isDecodedShell(v)) return false;
  try {
    check(v, true);
  } catch {
    return false;
  }
  return true;
}

/** validatePolicy; with `shapes`, each statement's shape is checked too (isValidDecoded). */
function check(policy: Policy, shapes: boolean): void {
  const { builtin_funcs } = policy.static;
  const funcList = policy.funcs.funcs;
  // funcs by name → their index (calls and the call graph work with indexes, not the funcs' long
  // names)
  const funcs = new Map<string, number>();
  for (let i = 0; i < funcList.length; i++) {
    const f = funcList[i]!;
    if (funcs.has(f.name)) throw invalid(`funcs.funcs[${i}].name`, `duplicate func name ${JSON.stringify(f.name)}`);
    funcs.set(f.name, i);
    const j = duplicateParam(f.params);
    if (j >= 0) throw invalid(`funcs.funcs[${i}].params[${j}]`, `duplicate param local ${f.params[j]}`);
  }
  const builtins = new Map<string, (typeof builtin_funcs)[number]>();
  builtin_funcs.forEach((b, i) => {
    if (builtins.has(b.name)) throw invalid(`static.builtin_funcs[${i}].name`, `duplicate builtin ${JSON.stringify(b.name)}`);
    builtins.set(b.name, b);
  });
  const planNames = new Set<string>();
  policy.plans.plans.forEach((p, i) => {
    if (planNames.has(p.name)) throw invalid(`plans.plans[${i}].name`, `duplicate plan name ${JSON.stringify(p.name)}`);
    planNames.add(p.name);
  });

  const checker = new BodyChecker(policy, funcs, builtins, shapes);
  const planLocals = [0, 1];
  policy.plans.plans.forEach((p, i) => checker.body("plan", planLocals, p.blocks, i, undefined));
  const callees: number[][] = new Array<number[]>(funcList.length);
  for (let i = 0; i < funcList.length; i++) {
    const out: number[] = [];
    checker.body("func", funcList[i]!.params, funcList[i]!.blocks, i, out);
    callees[i] = out;
  }
  checkAcyclic(policy, callees);
}

/** The index of the first param that repeats an earlier one, or -1. */
function duplicateParam(params: readonly number[]): number {
  if (params.length <= 16) {
    // the usual few: no set needed
    for (let j = 1; j < params.length; j++) if (params.lastIndexOf(params[j]!, j - 1) >= 0) return j;
    return -1;
  }
  const seen = new Set<number>();
  for (let j = 0; j < params.length; j++) {
    if (seen.has(params[j]!)) return j;
    seen.add(params[j]!);
  }
  return -1;
}

/** Rego has no recursion: a func that can reach itself (CallStmt or CallDynamicStmt) is refused.
 * `callees`: by func index, the funcs its statements may call (indexes), in statement order. */
function checkAcyclic(policy: Policy, callees: readonly (readonly number[])[]): void {
  const funcs = policy.funcs.funcs;
  const state = new Uint8Array(funcs.length); // 0 = not seen, 1 = on the stack, 2 = done
  // Depth-first with an explicit stack (call chains can be thousands of funcs long): the chain of
  // funcs and, for each, the index of its next callee, in arrays made once — a func is on the
  // chain at most once.
  const chain = new Int32Array(funcs.length);
  const next = new Int32Array(funcs.length);
  for (let root = 0; root < funcs.length; root++) {
    if (state[root] !== 0) continue;
    let top = 0;
    chain[0] = root;
    next[0] = 0;
    state[root] = 1;
    while (top >= 0) {
      const f = chain[top]!;
      const cs = callees[f]!;
      const i = next[top]!;
      if (i === cs.length) {
        state[f] = 2;
        top--;
        continue;
      }
      next[top] = i + 1;
      const c = cs[i]!;
      if (state[c] === 1) {
        const onChain = Array.from(chain.subarray(0, top + 1));
        const cycle = [...onChain.slice(onChain.indexOf(c)), c].map((n) => JSON.stringify(funcs[n]!.name)).join(" -> ");
        throw invalid(`funcs.funcs[${c}]`, `recursive call: ${cycle}`);
      }
      if (state[c] === 0) {
        state[c] = 1;
        top++;
        chain[top] = c;
        next[top] = 0;
      }
    }
  }
}

/** The per-statement checks, walking the blocks without allocating per statement (a plan has a
 * great many): the JSON path of a statement is rendered only for an error, from the block and
 * statement indexes on the way down (`trail`). */
class BodyChecker {
  private readonly nStrings: number;
  private readonly nFiles: number;
  private readonly strings: readonly StringConst[];
  /** The rule funcs by path, for the funcs a CallDynamicStmt may call (made on first use). */
  private paths: FuncPaths | undefined;
  // the body being checked: a plan's or a func's (by index)
  private kind: "plan" | "func" = "plan";
  private index = 0;
  private protectedLocals: readonly number[] = [];
  private callees: number[] | undefined;
  /** Per nesting depth: the block's index in its statement (-1: the `block` field) and the
   * statement's index in the block. */
  private readonly trail: number[] = [];

  constructor(
    private readonly policy: Policy,
    /** Func name → index. */
    private readonly funcs: ReadonlyMap<string, number>,
    private readonly builtins: ReadonlyMap<string, BuiltinFunc>,
    /** Check each statement's decoded shape before its cross-references (isValidDecoded). */
    private readonly shapes: boolean,
  ) {
    this.strings = policy.static.strings;
    this.nStrings = this.strings.length;
    this.nFiles = policy.static.files.length;
  }

  /** Checks the top-level `blocks` of plan or func `index`; the funcs its statements call are
   * appended to `callees`. */
  body(kind: "plan" | "func", protectedLocals: readonly number[], blocks: readonly Block[], index: number, callees: number[] | undefined): void {
    this.kind = kind;
    this.index = index;
    this.protectedLocals = protectedLocals;
    this.callees = callees;
    for (let i = 0; i < blocks.length; i++) this.block(blocks[i]!, i, 0, 1);
  }

  private block(block: Block, index: number, depth: number, levels: number): void {
    const stmts = block.stmts;
    for (let i = 0; i < stmts.length; i++) {
      const s = stmts[i]!;
      if (this.shapes && !isDecodedStmtShell(s)) throw NOT_DECODED;
      this.trail[2 * depth] = index;
      this.trail[2 * depth + 1] = i;
      this.stmt(s, depth, levels);
      switch (s.type) {
        case "BlockStmt": {
          const bs = s.stmt.blocks;
          for (let j = 0; j < bs.length; j++) this.block(bs[j]!, j, depth + 1, levels + 1);
          break;
        }
        case "NotStmt":
        case "WithStmt":
          this.block(s.stmt.block, -1, depth + 1, levels + 1);
          break;
        case "ScanStmt":
          this.block(s.stmt.block, -1, depth + 1, levels + 2);
          break;
        case "ArrayAppendStmt":
        case "AssignIntStmt":
        case "AssignVarOnceStmt":
        case "AssignVarStmt":
        case "BreakStmt":
        case "CallDynamicStmt":
        case "CallStmt":
        case "DotStmt":
        case "EqualStmt":
        case "IsArrayStmt":
        case "IsDefinedStmt":
        case "IsObjectStmt":
        case "IsSetStmt":
        case "IsUndefinedStmt":
        case "LenStmt":
        case "MakeArrayStmt":
        case "MakeNullStmt":
        case "MakeNumberIntStmt":
        case "MakeNumberRefStmt":
        case "MakeObjectStmt":
        case "GroupsStmt":
        case "MakeSetStmt":
        case "NopStmt":
        case "NotEqualStmt":
        case "ObjectInsertOnceStmt":
        case "ObjectInsertStmt":
        case "ObjectMergeStmt":
        case "ResetLocalStmt":
        case "ResultSetAddStmt":
        case "ReturnLocalStmt":
        case "SetAddStmt":
        case "IndexStmt":
        case "IncrementStmt":
        case "GroupAddStmt":
          break;
        default:
          assertNever(s);
      }
    }
  }

  /** The JSON path of the statement at `depth` on the trail. */
  private path(depth: number): string {
    const root = this.kind === "plan" ? `plans.plans[${this.index}].blocks` : `funcs.funcs[${this.index}].blocks`;
    let out = `${root}[${this.trail[0]}].stmts[${this.trail[1]}]`;
    for (let d = 1; d <= depth; d++) {
      const b = this.trail[2 * d]!;
      out += `${b < 0 ? ".stmt.block" : `.stmt.blocks[${b}]`}.stmts[${this.trail[2 * d + 1]}]`;
    }
    return out;
  }

  private fail(depth: number, field: string, message: string): RegoError {
    return invalid(`${this.path(depth)}.stmt${field}`, message);
  }

  private string(index: number, depth: number, field: string): void {
    if (index >= this.nStrings) throw this.fail(depth, `.${field}`, `string index ${index} out of range (${this.nStrings} strings)`);
  }

  private operand(op: Operand, depth: number, field: string): void {
    if (op.type === "string_index" && op.value >= this.nStrings) this.string(op.value, depth, `${field}.value`);
  }

  private operands(ops: readonly Operand[], depth: number, field: string): void {
    for (let i = 0; i < ops.length; i++) {
      const op = ops[i]!;
      if (op.type === "string_index" && op.value >= this.nStrings) this.string(op.value, depth, `${field}[${i}].value`);
    }
  }

  private mutates(local: number, stmt: Stmt, depth: number): void {
    if (this.protectedLocals.includes(local)) {
      throw this.fail(depth, "", `${stmt.type} mutates local ${local}, which holds ${this.kind === "plan" ? "the input or data document" : "a parameter"}`);
    }
  }

  private stmt(stmt: Stmt, depth: number, levels: number): void {
    const s = stmt.stmt;
    if (this.nFiles > 0 ? s.file >= this.nFiles : s.file !== 0) {
      throw this.fail(depth, ".file", `file index ${s.file} out of range (${this.nFiles} files)`);
    }
    // operands read (string indexes in range) and collections mutated in place (not protected)
    switch (stmt.type) {
      case "ArrayAppendStmt":
        this.operand(stmt.stmt.value, depth, "value");
        this.mutates(stmt.stmt.array, stmt, depth);
        break;
      case "SetAddStmt":
        this.operand(stmt.stmt.value, depth, "value");
        this.mutates(stmt.stmt.set, stmt, depth);
        break;
      case "AssignVarOnceStmt":
      case "AssignVarStmt":
      case "IsArrayStmt":
      case "IsObjectStmt":
      case "IsSetStmt":
      case "LenStmt":
        this.operand(stmt.stmt.source, depth, "source");
        break;
      case "CallStmt":
        this.operands(stmt.stmt.args, depth, "args");
        break;
      case "CallDynamicStmt":
        this.operands(stmt.stmt.path, depth, "path");
        break;
      case "DotStmt":
        this.operand(stmt.stmt.source, depth, "source");
        this.operand(stmt.stmt.key, depth, "key");
        break;
      case "EqualStmt":
      case "NotEqualStmt":
        this.operand(stmt.stmt.a, depth, "a");
        this.operand(stmt.stmt.b, depth, "b");
        break;
      case "ObjectInsertOnceStmt":
      case "ObjectInsertStmt":
        this.operand(stmt.stmt.key, depth, "key");
        this.operand(stmt.stmt.value, depth, "value");
        this.mutates(stmt.stmt.object, stmt, depth);
        break;
      case "WithStmt":
        this.operand(stmt.stmt.value, depth, "value");
        break;
      case "AssignIntStmt":
      case "BlockStmt":
      case "BreakStmt":
      case "IsDefinedStmt":
      case "IsUndefinedStmt":
      case "MakeArrayStmt":
      case "MakeNullStmt":
      case "MakeNumberIntStmt":
      case "MakeNumberRefStmt":
      case "MakeObjectStmt":
      case "GroupsStmt":
      case "MakeSetStmt":
      case "NopStmt":
      case "NotStmt":
      case "ObjectMergeStmt":
      case "ResetLocalStmt":
      case "ResultSetAddStmt":
      case "ReturnLocalStmt":
      case "ScanStmt":
      case "IndexStmt":
      case "IncrementStmt":
      case "GroupAddStmt":
        break;
      default:
        assertNever(stmt);
    }
    switch (stmt.type) {
      case "BreakStmt":
        if (stmt.stmt.index >= levels) throw this.fail(depth, ".index", `break index ${stmt.stmt.index} leaves the ${this.kind} (${levels} enclosing levels)`);
        break;
      case "MakeNumberRefStmt": {
        this.string(stmt.stmt.index, depth, "index");
        const text = this.strings[stmt.stmt.index]!.value;
        if (numberFromText(text) === undefined) throw this.fail(depth, ".index", `string ${JSON.stringify(text)} is not a number`);
        break;
      }
      case "MakeNumberIntStmt":
      case "AssignIntStmt":
        if (!Number.isSafeInteger(stmt.stmt.value)) throw this.fail(depth, ".value", "integer out of range");
        break;
      case "WithStmt": {
        const path = stmt.stmt.path;
        for (let i = 0; i < path.length; i++) if (path[i]! >= this.nStrings) this.string(path[i]!, depth, `path[${i}]`);
        break;
      }
      case "CallStmt":
        this.call(stmt.stmt, depth);
        break;
      case "CallDynamicStmt":
        if (stmt.stmt.args.length !== 2) throw this.fail(depth, ".args", "expected the input and data locals");
        if (stmt.stmt.path.length === 0) throw this.fail(depth, ".path", "expected a non-empty path");
        if (levels < 4) throw this.fail(depth, "", `CallDynamicStmt needs 3 enclosing blocks to break out of (${levels - 1} here)`);
        if (this.callees) {
          this.paths ??= new FuncPaths(this.policy.funcs.funcs);
          for (const [i] of this.paths.candidatesByIndex(stmt.stmt, this.policy)) this.callees.push(i);
        }
        break;
      case "ResultSetAddStmt":
        if (this.kind !== "plan") throw this.fail(depth, "", "ResultSetAddStmt outside a plan");
        break;
      case "ReturnLocalStmt":
        if (this.kind !== "func") throw this.fail(depth, "", "ReturnLocalStmt outside a func");
        break;
      case "ArrayAppendStmt":
      case "AssignVarOnceStmt":
      case "AssignVarStmt":
      case "BlockStmt":
      case "DotStmt":
      case "EqualStmt":
      case "IsArrayStmt":
      case "IsDefinedStmt":
      case "IsObjectStmt":
      case "IsSetStmt":
      case "IsUndefinedStmt":
      case "LenStmt":
      case "MakeArrayStmt":
      case "MakeNullStmt":
      case "MakeObjectStmt":
      case "GroupsStmt":
      case "MakeSetStmt":
      case "NopStmt":
      case "NotEqualStmt":
      case "NotStmt":
      case "ObjectInsertOnceStmt":
      case "ObjectInsertStmt":
      case "ObjectMergeStmt":
      case "ResetLocalStmt":
      case "ScanStmt":
      case "SetAddStmt":
      case "IndexStmt":
      case "IncrementStmt":
      case "GroupAddStmt":
        break;
      default:
        assertNever(stmt);
    }
  }

  /** A CallStmt calls a func with its number of params, or a declared builtin. */
  private call(s: CallStmt, depth: number): void {
    const name = s.func;
    const i = this.funcs.get(name);
    if (i !== undefined) {
      const f = this.policy.funcs.funcs[i]!;
      if (s.args.length !== f.params.length) throw this.fail(depth, ".args", `func ${JSON.stringify(name)} takes ${f.params.length} arguments, got ${s.args.length}`);
      this.callees?.push(i);
      return;
    }
    const b = this.builtins.get(name);
    if (!b) throw this.fail(depth, ".func", `unknown function ${JSON.stringify(name)}: not a func and not in static.builtin_funcs`);
    const args = b.decl.args;
    if (Array.isArray(args) && b.decl.variadic === undefined && args.length !== s.args.length) {
      throw this.fail(depth, ".args", `builtin ${JSON.stringify(name)} takes ${args.length} arguments, got ${s.args.length}`);
    }
  }
}
