// Cross-reference checks on a decoded plan. Everything the code generator relies on is checked
// here, so a malformed plan is refused with a `plan_invalid_error` naming the JSON path instead of
// producing code that crashes: string and file indexes in range, number literals that parse,
// calls to known funcs (with the right number of arguments) or to builtins declared in
// `static.builtin_funcs`, break indexes within the enclosing levels (CallDynamicStmt needs 3),
// ResultSetAddStmt only in plans and ReturnLocalStmt only in funcs, unique names, distinct params,
// and no in-place mutation of a plan's input/data locals or of a func's params.
import { numberFromText } from "../../runtime/value/number.js";
import { invalid } from "./decode.js";
import type { BuiltinFunc, Func, Operand, Policy, StringConst } from "./types.js";
import { FuncPaths, forEachStmt, mutatedOf, operandsOf, walkBlocks, type StmtVisit } from "./walk.js";

/** Validates a decoded policy; throws RegoError("plan_invalid_error") on the first problem. */
export function validatePolicy(policy: Policy): void {
  const { strings, files, builtin_funcs } = policy.static;
  const funcs = new Map<string, Func>();
  policy.funcs.funcs.forEach((f, i) => {
    const path = `funcs.funcs[${i}]`;
    if (funcs.has(f.name)) throw invalid(`${path}.name`, `duplicate func name ${JSON.stringify(f.name)}`);
    funcs.set(f.name, f);
    const seen = new Set<number>();
    f.params.forEach((p, j) => {
      if (seen.has(p)) throw invalid(`${path}.params[${j}]`, `duplicate param local ${p}`);
      seen.add(p);
    });
  });
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

  const check = new BodyChecker(strings.length, files.length, funcs, builtins, strings);
  const planLocals = new Set([0, 1]);
  policy.plans.plans.forEach((p, i) => {
    walkBlocks(p.blocks, `plans.plans[${i}].blocks`, (v) => check.stmt("plan", planLocals, v));
  });
  policy.funcs.funcs.forEach((f, i) => {
    const params = new Set(f.params);
    walkBlocks(f.blocks, `funcs.funcs[${i}].blocks`, (v) => check.stmt("func", params, v));
  });
  checkAcyclic(policy, funcs);
}

/** Rego has no recursion: a func that can reach itself (CallStmt or CallDynamicStmt) is refused. */
function checkAcyclic(policy: Policy, funcs: ReadonlyMap<string, Func>): void {
  const callees = new Map<string, string[]>();
  const paths = new FuncPaths(funcs.values());
  for (const f of policy.funcs.funcs) {
    const out: string[] = [];
    forEachStmt(f.blocks, (s) => {
      if (s.type === "CallStmt" && funcs.has(s.stmt.func)) out.push(s.stmt.func);
      else if (s.type === "CallDynamicStmt") for (const g of paths.candidates(s.stmt, policy)) out.push(g.name);
    });
    callees.set(f.name, out);
  }
  const state = new Map<string, 1 | 2>(); // 1 = on the stack, 2 = done
  const index = new Map(policy.funcs.funcs.map((f, i) => [f.name, i]));
  // depth-first with an explicit stack (call chains can be thousands of funcs long)
  const visit = (root: string): void => {
    const chain: string[] = [root];
    const next: number[] = [0];
    state.set(root, 1);
    while (chain.length > 0) {
      const name = chain[chain.length - 1]!;
      const cs = callees.get(name) ?? [];
      const i = next[next.length - 1]!;
      if (i === cs.length) {
        state.set(name, 2);
        chain.pop();
        next.pop();
        continue;
      }
      next[next.length - 1] = i + 1;
      const c = cs[i]!;
      const st = state.get(c);
      if (st === 1) {
        const cycle = [...chain.slice(chain.indexOf(c)), c].map((n) => JSON.stringify(n)).join(" -> ");
        throw invalid(`funcs.funcs[${index.get(c)}]`, `recursive call: ${cycle}`);
      }
      if (st === undefined) {
        state.set(c, 1);
        chain.push(c);
        next.push(0);
      }
    }
  };
  for (const f of policy.funcs.funcs) if (!state.has(f.name)) visit(f.name);
}

/** The per-statement checks. JSON paths are built only for an error message (`v.path` is lazy):
 * a plan has a great many statements. */
class BodyChecker {
  constructor(
    private readonly nStrings: number,
    private readonly nFiles: number,
    private readonly funcs: ReadonlyMap<string, Func>,
    private readonly builtins: ReadonlyMap<string, BuiltinFunc>,
    private readonly strings: readonly StringConst[],
  ) {}

  private string(index: number, v: StmtVisit, field: string): void {
    if (index >= this.nStrings) throw invalid(`${v.path}.stmt.${field}`, `string index ${index} out of range (${this.nStrings} strings)`);
  }

  private operand(op: Operand, v: StmtVisit, field: string): void {
    if (op.type === "string_index") this.string(op.value, v, `${field}.value`);
  }

  stmt(kind: "plan" | "func", protectedLocals: ReadonlySet<number>, v: StmtVisit): void {
    const { stmt, levels } = v;
    const s = stmt.stmt;
    if (this.nFiles > 0 ? s.file >= this.nFiles : s.file !== 0) {
      throw invalid(`${v.path}.stmt.file`, `file index ${s.file} out of range (${this.nFiles} files)`);
    }
    if (stmt.type === "CallStmt" || stmt.type === "CallDynamicStmt") {
      // operandsOf would name every argument (`args[3]`) up front
      const [field, list] = stmt.type === "CallStmt" ? ["args", stmt.stmt.args] : ["path", stmt.stmt.path];
      for (let i = 0; i < list.length; i++) {
        const op = list[i]!;
        if (op.type === "string_index" && op.value >= this.nStrings) this.operand(op, v, `${field}[${i}]`);
      }
    } else {
      for (const [field, op] of operandsOf(stmt)) this.operand(op, v, field);
    }
    for (const m of mutatedOf(stmt)) {
      if (protectedLocals.has(m)) {
        throw invalid(`${v.path}.stmt`, `${stmt.type} mutates local ${m}, which holds ${kind === "plan" ? "the input or data document" : "a parameter"}`);
      }
    }
    switch (stmt.type) {
      case "BreakStmt":
        if (stmt.stmt.index >= levels) throw invalid(`${v.path}.stmt.index`, `break index ${stmt.stmt.index} leaves the ${kind} (${levels} enclosing levels)`);
        break;
      case "MakeNumberRefStmt": {
        this.string(stmt.stmt.index, v, "index");
        const text = this.strings[stmt.stmt.index]!.value;
        if (numberFromText(text) === undefined) throw invalid(`${v.path}.stmt.index`, `string ${JSON.stringify(text)} is not a number`);
        break;
      }
      case "MakeNumberIntStmt":
      case "AssignIntStmt":
        if (!Number.isSafeInteger(stmt.stmt.value)) throw invalid(`${v.path}.stmt.value`, "integer out of range");
        break;
      case "WithStmt": {
        const path = stmt.stmt.path;
        for (let i = 0; i < path.length; i++) if (path[i]! >= this.nStrings) this.string(path[i]!, v, `path[${i}]`);
        break;
      }
      case "CallStmt": {
        const name = stmt.stmt.func;
        const f = this.funcs.get(name);
        if (f) {
          if (stmt.stmt.args.length !== f.params.length) {
            throw invalid(`${v.path}.stmt.args`, `func ${JSON.stringify(name)} takes ${f.params.length} arguments, got ${stmt.stmt.args.length}`);
          }
          break;
        }
        const b = this.builtins.get(name);
        if (!b) throw invalid(`${v.path}.stmt.func`, `unknown function ${JSON.stringify(name)}: not a func and not in static.builtin_funcs`);
        const args = b.decl.args;
        if (Array.isArray(args) && b.decl.variadic === undefined && args.length !== stmt.stmt.args.length) {
          throw invalid(`${v.path}.stmt.args`, `builtin ${JSON.stringify(name)} takes ${args.length} arguments, got ${stmt.stmt.args.length}`);
        }
        break;
      }
      case "CallDynamicStmt":
        if (stmt.stmt.args.length !== 2) throw invalid(`${v.path}.stmt.args`, "expected the input and data locals");
        if (stmt.stmt.path.length === 0) throw invalid(`${v.path}.stmt.path`, "expected a non-empty path");
        if (levels < 4) throw invalid(`${v.path}.stmt`, `CallDynamicStmt needs 3 enclosing blocks to break out of (${levels - 1} here)`);
        break;
      case "ResultSetAddStmt":
        if (kind !== "plan") throw invalid(`${v.path}.stmt`, "ResultSetAddStmt outside a plan");
        break;
      case "ReturnLocalStmt":
        if (kind !== "func") throw invalid(`${v.path}.stmt`, "ReturnLocalStmt outside a func");
        break;
      default:
        break;
    }
  }
}
