// Test support for the optimiser's passes: a compact text form of IR (one statement a line,
// nested blocks indented) to show a pass's before/after, and hand-written plans decoded as the
// code generator decodes them.
import { generateModule } from "../../../../compiler/codegen/generate.js";
import { loadModule } from "../../../../compiler/codegen/loader.js";
import { decodeValidPolicy } from "../../../../compiler/ir/prepare.js";
import { optimize, type Pass } from "../../../../compiler/optimize/index.js";
import { PreparedQuery, type EvaluateOptions } from "../../../../runtime/eval/prepared.js";
import { toJSON, type Value } from "regoc";
import type { Block, Func, Operand, Policy, Stmt } from "../../../../compiler/ir/types.js";
import type { PolicyBuilder } from "../../../support/plans.js";

function op(o: Operand, policy: Policy): string {
  switch (o.type) {
    case "local":
      return `l${o.value}`;
    case "bool":
      return String(o.value);
    case "string_index":
      return JSON.stringify(policy.static.strings[o.value]!.value);
  }
}

function stmtLines(s: Stmt, policy: Policy, indent: string, out: string[]): void {
  const o = (x: Operand) => op(x, policy);
  const line = (text: string): void => void out.push(indent + text);
  const nested = (blocks: readonly Block[]) => {
    for (const b of blocks) {
      line("{");
      for (const t of b.stmts) stmtLines(t, policy, indent + "  ", out);
      line("}");
    }
  };
  switch (s.type) {
    case "BlockStmt":
      line("block");
      nested(s.stmt.blocks);
      return;
    case "NotStmt":
      line("not");
      nested([s.stmt.block]);
      return;
    case "ScanStmt":
      line(`scan l${s.stmt.source} (l${s.stmt.key}, l${s.stmt.value})`);
      nested([s.stmt.block]);
      return;
    case "WithStmt":
      line(`with l${s.stmt.local}${s.stmt.path.map((p) => "." + policy.static.strings[p]!.value).join("")} = ${o(s.stmt.value)}`);
      nested([s.stmt.block]);
      return;
    case "BreakStmt":
      return line(`break ${s.stmt.index}`);
    case "NopStmt":
      return line("nop");
    case "AssignVarStmt":
      return line(`l${s.stmt.target} = ${o(s.stmt.source)}`);
    case "AssignVarOnceStmt":
      return line(`l${s.stmt.target} := ${o(s.stmt.source)}`);
    case "ResetLocalStmt":
      return line(`reset l${s.stmt.target}`);
    case "DotStmt":
      return line(`l${s.stmt.target} = ${o(s.stmt.source)}[${o(s.stmt.key)}]`);
    case "CallStmt":
      return line(`l${s.stmt.result} = ${s.stmt.func}(${s.stmt.args.map(o).join(", ")})`);
    case "EqualStmt":
      return line(`${o(s.stmt.a)} == ${o(s.stmt.b)}`);
    case "NotEqualStmt":
      return line(`${o(s.stmt.a)} != ${o(s.stmt.b)}`);
    case "IsDefinedStmt":
      return line(`defined l${s.stmt.source}`);
    case "IsUndefinedStmt":
      return line(`undefined l${s.stmt.source}`);
    case "ReturnLocalStmt":
      return line(`return l${s.stmt.source}`);
    case "MakeNumberIntStmt":
      return line(`l${s.stmt.target} = ${s.stmt.value}`);
    default: {
      const { file: _f, row: _r, col: _c, ...fields } = s.stmt as unknown as Record<string, unknown>;
      const shown = Object.entries(fields).map(([k, v]) => `${k}=${typeof v === "object" && v !== null && "type" in v ? o(v as Operand) : JSON.stringify(v)}`);
      return line(`${s.type.replace(/Stmt$/, "")} ${shown.join(" ")}`);
    }
  }
}

/** The blocks as text. */
export function irText(blocks: readonly Block[], policy: Policy): string {
  const out: string[] = [];
  for (const b of blocks) {
    out.push("{");
    for (const s of b.stmts) stmtLines(s, policy, "  ", out);
    out.push("}");
  }
  return out.join("\n");
}

/** A func (by name) or plan (by name) of the policy, as text. */
export function bodyText(policy: Policy, name: string): string {
  const body: { blocks: Block[] } | undefined = policy.funcs.funcs.find((f: Func) => f.name === name) ?? policy.plans.plans.find((p) => p.name === name);
  if (!body) throw new Error(`no func or plan ${name}`);
  return irText(body.blocks, policy);
}

/** The builder's plan, decoded and validated. */
export function decoded(b: PolicyBuilder): Policy {
  return decodeValidPolicy(b.json());
}

/** Evaluates the builder's plan (its first entrypoint) compiled without and with the optimiser:
 * each outcome as JSON rows, or the error's code and message. */
export async function outcomes(b: PolicyBuilder, options: EvaluateOptions = {}, skip: readonly string[] = []): Promise<[unknown, unknown]> {
  const run = async (optimizeIt: boolean) => {
    const policy = decoded(b);
    const generated = generateModule(optimizeIt ? optimize(policy, { skip }).policy : policy, { language: "function", optimize: false });
    const mod = await loadModule(generated.code, generated);
    const pq = new PreparedQuery(mod.entrypoints, policy.plans.plans[0]!.name, generated.code);
    try {
      const rs = pq.evaluateSync(options);
      return rs.map((r) => JSON.parse(JSON.stringify(toJSON(r as Value))) as unknown);
    } catch (e) {
      return { error: (e as { code?: string }).code, message: (e as Error).message };
    }
  };
  return [await run(false), await run(true)];
}

/** The pass's output for the builder's plan, as text: the named func or plan. */
export function after(pass: Pass, b: PolicyBuilder, name: string): string {
  return bodyText(pass.run(decoded(b)), name);
}
