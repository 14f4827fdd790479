// Cross-reference checks on a decoded plan. Everything the code generator relies on is checked
// here, so a malformed plan is refused with a `plan_invalid_error` naming the JSON path instead of
// producing code that crashes: string and file indexes in range, number literals that parse,
// calls to known funcs (with the right number of arguments) or to builtins declared in
// `static.builtin_funcs`, break indexes within the enclosing levels (CallDynamicStmt needs 3),
// ResultSetAddStmt only in plans and ReturnLocalStmt only in funcs, unique names, distinct params,
// and no in-place mutation of a plan's input/data locals or of a func's params.
import { numberFromText } from "../../runtime/value/number.js";
import { invalid } from "./decode.js";
import type { Func, Operand, Policy, Stmt } from "./types.js";
import { dynamicCandidates, mutatedOf, operandsOf, walkBlocks } from "./walk.js";

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

  const checkString = (index: number, path: string) => {
    if (index >= strings.length) throw invalid(path, `string index ${index} out of range (${strings.length} strings)`);
  };
  const checkOperand = (op: Operand, path: string) => {
    if (op.type === "string_index") checkString(op.value, `${path}.value`);
  };

  const checkBody = (kind: "plan" | "func", protectedLocals: ReadonlySet<number>, stmt: Stmt, path: string, levels: number) => {
    const sp = `${path}.stmt`;
    const s = stmt.stmt;
    if (files.length > 0 ? s.file >= files.length : s.file !== 0) {
      throw invalid(`${sp}.file`, `file index ${s.file} out of range (${files.length} files)`);
    }
    for (const [name, op] of operandsOf(stmt)) checkOperand(op, `${sp}.${name}`);
    for (const m of mutatedOf(stmt)) {
      if (protectedLocals.has(m)) throw invalid(sp, `${stmt.type} mutates local ${m}, which holds ${kind === "plan" ? "the input or data document" : "a parameter"}`);
    }
    switch (stmt.type) {
      case "BreakStmt":
        if (stmt.stmt.index >= levels) throw invalid(`${sp}.index`, `break index ${stmt.stmt.index} leaves the ${kind} (${levels} enclosing levels)`);
        break;
      case "MakeNumberRefStmt": {
        checkString(stmt.stmt.index, `${sp}.index`);
        const text = strings[stmt.stmt.index]!.value;
        if (numberFromText(text) === undefined) throw invalid(`${sp}.index`, `string ${JSON.stringify(text)} is not a number`);
        break;
      }
      case "MakeNumberIntStmt":
      case "AssignIntStmt":
        if (!Number.isSafeInteger(stmt.stmt.value)) throw invalid(`${sp}.value`, "integer out of range");
        break;
      case "WithStmt":
        stmt.stmt.path.forEach((p, i) => checkString(p, `${sp}.path[${i}]`));
        break;
      case "CallStmt": {
        const name = stmt.stmt.func;
        const f = funcs.get(name);
        if (f) {
          if (stmt.stmt.args.length !== f.params.length) {
            throw invalid(`${sp}.args`, `func ${JSON.stringify(name)} takes ${f.params.length} arguments, got ${stmt.stmt.args.length}`);
          }
          break;
        }
        const b = builtins.get(name);
        if (!b) throw invalid(`${sp}.func`, `unknown function ${JSON.stringify(name)}: not a func and not in static.builtin_funcs`);
        const args = b.decl.args;
        if (Array.isArray(args) && b.decl.variadic === undefined && args.length !== stmt.stmt.args.length) {
          throw invalid(`${sp}.args`, `builtin ${JSON.stringify(name)} takes ${args.length} arguments, got ${stmt.stmt.args.length}`);
        }
        break;
      }
      case "CallDynamicStmt":
        if (stmt.stmt.args.length !== 2) throw invalid(`${sp}.args`, "expected the input and data locals");
        if (stmt.stmt.path.length === 0) throw invalid(`${sp}.path`, "expected a non-empty path");
        if (levels < 4) throw invalid(sp, `CallDynamicStmt needs 3 enclosing blocks to break out of (${levels - 1} here)`);
        break;
      case "ResultSetAddStmt":
        if (kind !== "plan") throw invalid(sp, "ResultSetAddStmt outside a plan");
        break;
      case "ReturnLocalStmt":
        if (kind !== "func") throw invalid(sp, "ReturnLocalStmt outside a func");
        break;
      default:
        break;
    }
  };

  const planLocals = new Set([0, 1]);
  policy.plans.plans.forEach((p, i) => {
    walkBlocks(p.blocks, `plans.plans[${i}].blocks`, (v) => checkBody("plan", planLocals, v.stmt, v.path, v.levels));
  });
  policy.funcs.funcs.forEach((f, i) => {
    const params = new Set(f.params);
    walkBlocks(f.blocks, `funcs.funcs[${i}].blocks`, (v) => checkBody("func", params, v.stmt, v.path, v.levels));
  });
  checkAcyclic(policy, funcs);
}

/** Rego has no recursion: a func that can reach itself (CallStmt or CallDynamicStmt) is refused. */
function checkAcyclic(policy: Policy, funcs: ReadonlyMap<string, Func>): void {
  const callees = new Map<string, string[]>();
  for (const f of policy.funcs.funcs) {
    const out: string[] = [];
    walkBlocks(f.blocks, "", (v) => {
      if (v.stmt.type === "CallStmt" && funcs.has(v.stmt.stmt.func)) out.push(v.stmt.stmt.func);
      else if (v.stmt.type === "CallDynamicStmt") for (const g of dynamicCandidates(v.stmt.stmt, policy, funcs)) out.push(g.name);
    });
    callees.set(f.name, out);
  }
  const state = new Map<string, 1 | 2>(); // 1 = on the stack, 2 = done
  const index = new Map(policy.funcs.funcs.map((f, i) => [f.name, i]));
  const visit = (name: string, chain: string[]): void => {
    state.set(name, 1);
    for (const c of callees.get(name) ?? []) {
      const st = state.get(c);
      if (st === 1) {
        const cycle = [...chain.slice(chain.indexOf(c)), c].map((n) => JSON.stringify(n)).join(" -> ");
        throw invalid(`funcs.funcs[${index.get(c)}]`, `recursive call: ${cycle}`);
      }
      if (st === undefined) visit(c, [...chain, c]);
    }
    state.set(name, 2);
  };
  for (const f of policy.funcs.funcs) if (!state.has(f.name)) visit(f.name, [f.name]);
}
