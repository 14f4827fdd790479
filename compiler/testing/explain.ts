// `--explain fails` (regoc test, regoc eval): for a failed test or an undefined query, the
// expression of its body where evaluation stopped and the values of that expression's operands.
// regoc has no evaluation tracer (policies run as generated code), so the body is evaluated again
// in parts: each prefix (`e1`, `e1; e2`, ...), the first without a result ending at the failing
// expression, then each operand after the expressions before it (with the failing expression's
// `with`s). A test's parts are rules in its package with its module's imports; a query's parts are
// queries. A body whose parts do not compile (a var the failing expression itself declares, ...)
// gets no explanation.
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

/** How a body's parts are evaluated: a body (expression texts) has a result or not; the value of
 * a term after a body (undefined: none). Each call compiles what it is given. */
export interface PartsEvaluator {
  defined(bodies: string[][]): Promise<boolean[]>;
  values(before: string[], terms: string[]): Promise<unknown[]>;
}

/** The expression where `body` stops having a result, with its operands' values; undefined when
 * every prefix has one or the parts do not compile. */
export async function explainBody(body: readonly Expr[], parts: PartsEvaluator, show: (value: unknown) => string): Promise<Explanation | undefined> {
  try {
    const texts = body.map((e) => e.location.text);
    const defined = await parts.defined(texts.map((_, k) => texts.slice(0, k + 1)));
    const failing = defined.indexOf(false);
    if (failing < 0) return undefined;
    const expr = body[failing]!;
    const out: Explanation = { location: { file: expr.location.file, row: expr.location.row, col: expr.location.col }, text: expr.location.text, values: [] };
    const operands = operandsOf(expr);
    if (operands.length === 0) return out;
    // the failing expression's `with`s apply to its operands too
    const withs = expr.with.map((w) => ` ${w.location.text}`).join("");
    const values = await parts.values(texts.slice(0, failing), operands.map((o) => `${o.location.text}${withs}`)).catch(() => undefined);
    operands.forEach((o, j) => values && out.values.push({ text: o.location.text, value: values[j] === undefined ? undefined : show(values[j]) }));
    return out;
  } catch {
    return undefined;
  }
}

export type CompileEntrypoints = (modules: Record<string, string>, entrypoints: string[]) => Promise<Record<string, EntrypointInfo>>;

/** Evaluates an entrypoint: its value, or undefined (no result). */
export type Evaluate = (info: EntrypointInfo) => Promise<unknown>;

const PREFIX = "__regoc_explain";

/** A failed test's body, its parts evaluated as rules in the test's package (beside the test). */
export function explainFailure(
  t: TestCase,
  modules: Record<string, string>,
  compile: CompileEntrypoints,
  evaluate: Evaluate,
  show: (value: unknown) => string,
): Promise<Explanation | undefined> {
  if (t.rule.generatedBody || t.rule.else || t.rule.body.length === 0) return Promise.resolve(undefined);
  const pkgPath = t.entrypoint.split("/").slice(0, -t.name.split(".").length);
  const file = `${t.file}#explain`;
  const header = moduleHeader(t);
  const ifKw = usesIf(t) ? " if" : "";
  const block = (exprs: string[]) => exprs.map((e) => `  ${e}`).join("\n");
  /** Compiles the rules `name := value if { body }` and evaluates each. */
  const run = async (rules: { value: string; body: string[] }[]): Promise<unknown[]> => {
    const names = rules.map((_, i) => `${PREFIX}_${i}`);
    const text = rules.map((r, i) => `${names[i]} := ${r.value}${ifKw} {\n${block(r.body.length > 0 ? r.body : ["true"])}\n}`).join("\n\n");
    const table = await compile({ ...modules, [file]: `${header}\n${text}\n` }, names.map((n) => [...pkgPath, n].join("/")));
    const out: unknown[] = [];
    for (const n of names) out.push(await evaluate(table[[...pkgPath, n].join("/")]!));
    return out;
  };
  const parts: PartsEvaluator = {
    defined: async (bodies) => (await run(bodies.map((body) => ({ value: "true", body })))).map((v) => v !== undefined),
    values: (before, terms) => run(terms.map((term) => ({ value: "__regoc_v", body: [...before, `__regoc_v := ${term}`] }))),
  };
  return explainBody(t.rule.body, parts, show);
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
