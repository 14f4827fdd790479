// `regoc test --explain fails`: for a failed test, the expression of its body where evaluation
// stopped and the values of that expression's operands. regoc has no evaluation tracer (the test
// runs as generated code), so a failed test is evaluated again in parts: a rule per prefix of its
// body (`e1`, `e1; e2`, ...) in the test's package, with the test module's imports; the first
// prefix without a result ends at the failing expression, and a rule per operand (after the
// expressions before it, with the failing expression's `with`s) gives the values. A test whose
// parts do not compile (a var the failing expression itself declares, ...) gets no explanation.
import type { EntrypointInfo } from "../../runtime/eval/prepared.js";
import type { Expr, Term } from "../ast/nodes.js";
import type { TestCase } from "./discover.js";

export interface Explanation {
  /** Where the failing expression is: `file:row`. */
  location: { file: string; row: number; col: number };
  /** Its source text. */
  text: string;
  /** Each operand that is not a constant: its text and value (Rego syntax; undefined: no value). */
  values: { text: string; value: string | undefined }[];
}

export type CompileEntrypoints = (modules: Record<string, string>, entrypoints: string[]) => Promise<Record<string, EntrypointInfo>>;

/** Evaluates an entrypoint: its value, or undefined (no result). */
export type Evaluate = (info: EntrypointInfo) => Promise<unknown>;

const PREFIX = "__regoc_explain";

export async function explainFailure(
  t: TestCase,
  modules: Record<string, string>,
  compile: CompileEntrypoints,
  evaluate: Evaluate,
  show: (value: unknown) => string,
): Promise<Explanation | undefined> {
  const body = t.rule.body;
  if (t.rule.generatedBody || t.rule.else || body.length === 0) return undefined;
  const pkgPath = t.entrypoint.split("/").slice(0, -t.name.split(".").length);
  const file = `${t.file}#explain`;
  const header = moduleHeader(t);
  const ifKw = usesIf(t) ? " if" : "";
  try {
    // a rule per prefix of the body; the first without a result ends at the failing expression
    const prefixes = body.map((_, k) => `${PREFIX}_${k} = true${ifKw} {\n${bodyText(body.slice(0, k + 1))}\n}`);
    const table = await compile({ ...modules, [file]: `${header}\n${prefixes.join("\n\n")}\n` }, body.map((_, k) => [...pkgPath, `${PREFIX}_${k}`].join("/")));
    let failing = -1;
    for (let k = 0; k < body.length; k++) {
      if ((await evaluate(table[[...pkgPath, `${PREFIX}_${k}`].join("/")]!)) === undefined) {
        failing = k;
        break;
      }
    }
    if (failing < 0) return undefined;
    const expr = body[failing]!;
    const out: Explanation = { location: { file: expr.location.file, row: expr.location.row, col: expr.location.col }, text: expr.location.text, values: [] };
    const operands = operandsOf(expr);
    if (operands.length === 0) return out;
    const withs = expr.with.map((w) => ` ${w.location.text}`).join("");
    const before = bodyText(body.slice(0, failing));
    const rules = operands.map((o, j) => `${PREFIX}_v${j} := __regoc_v${ifKw} {\n${before}${before ? "\n" : ""}  __regoc_v := ${o.location.text}${withs}\n}`);
    const values = await compile({ ...modules, [file]: `${header}\n${rules.join("\n\n")}\n` }, operands.map((_, j) => [...pkgPath, `${PREFIX}_v${j}`].join("/"))).catch(() => undefined);
    if (values) {
      for (let j = 0; j < operands.length; j++) {
        const v = await evaluate(values[[...pkgPath, `${PREFIX}_v${j}`].join("/")]!);
        out.values.push({ text: operands[j]!.location.text, value: v === undefined ? undefined : show(v) });
      }
    }
    return out;
  } catch {
    return undefined;
  }
}

/** The test module's package and imports, as written. */
function moduleHeader(t: TestCase): string {
  return [t.module.package.location.text, ...t.module.imports.map((i) => i.location.text)].join("\n");
}

/** Rule bodies need `if` in v1 and after `import rego.v1` or `future.keywords(.if)`. */
function usesIf(t: TestCase): boolean {
  if (t.module.regoVersion !== "v0") return true;
  return t.module.imports.some((i) => /^import\s+future\.keywords(\.if)?\b/.test(i.location.text));
}

function bodyText(exprs: readonly Expr[]): string {
  return exprs.map((e) => `  ${e.location.text}`).join("\n");
}

/** The operands worth showing: a call's arguments, or a single term (negated or not); constants
 * (scalars) are left out. */
function operandsOf(expr: Expr): Term[] {
  const terms = expr.terms;
  const candidates = Array.isArray(terms) ? terms.slice(1) : NOT_TERMS.has(terms.type) ? [] : [terms as Term];
  return candidates.filter((t) => !CONSTANTS.has(t.type));
}

/** The expression forms that are not a single term. */
const NOT_TERMS = new Set(["some", "every", "and", "or", "not"]);
const CONSTANTS = new Set(["null", "boolean", "number", "string"]);
