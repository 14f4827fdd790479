// The AST's printer, in two forms. Rego source (v1 syntax), for round trips and golden output:
// printing and parsing again gives the same AST, locations aside; operators print infix with the
// parentheses precedence needs, wildcards print as `_`, generated values and bodies are left out,
// and `# METADATA` blocks print before the node they annotate. OPA's String() form (opaTerm,
// opaRef, opaExpr), which error messages quote as OPA does: every operator as a call
// (`eq(x, 1)`), a keyword after a dot in brackets, a template string as written.
import { stringify } from "yaml";

import { assertNever } from "../../runtime/errors.js";
import type { Annotations, Body, Expr, ExprTerms, Module, Ref, Rule, Term } from "./nodes.js";

/** Infix operators: operator var → [symbol, precedence]. Precedence as in the parser's token
 * table; `in` is the loosest. */
const INFIX: Record<string, [string, number]> = {
  equal: ["==", 1],
  neq: ["!=", 1],
  lt: ["<", 1],
  gt: [">", 1],
  lte: ["<=", 1],
  gte: [">=", 1],
  or: ["|", 2],
  and: ["&", 3],
  plus: ["+", 4],
  minus: ["-", 4],
  mul: ["*", 5],
  div: ["/", 5],
  rem: ["%", 5],
};
const PREC_IN = 0;
const PREC_ATOM = 9;

const IDENT = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const KEYWORDS = new Set([
  "not", "package", "import", "as", "default", "else", "with", "null", "true", "false", "some", "every", "in",
  "contains", "if",
]);

/** Rego source, or OPA's String() form. */
type Form = "rego" | "opa";

/** A term in OPA's String() form. */
export function opaTerm(t: Term): string {
  return printTerm(t, "opa");
}

/** A ref in OPA's String() form. */
export function opaRef(ref: Ref): string {
  return printRef(ref, false, "opa");
}

/** An expression in OPA's String() form. */
export function opaExpr(e: Expr): string {
  return printExpr(e, 0, false, "opa");
}

/** The dotted name of a ref that opaRef prints as its values joined by dots (a var head not a
 * wildcard, then strings each an identifier and no keyword), else undefined. */
export function plainDottedName(ref: Ref): string | undefined {
  const head = ref[0];
  if (head?.type !== "var" || head.value.startsWith("$")) return undefined;
  let out = head.value;
  for (let i = 1; i < ref.length; i++) {
    const t = ref[i]!;
    if (t.type !== "string" || !dotted(t.value, "opa")) return undefined;
    out += `.${t.value}`;
  }
  return out;
}

/** A string key of a ref prints after a dot. */
function dotted(s: string, form: Form): boolean {
  return IDENT.test(s) && (form === "rego" || !KEYWORDS.has(s));
}

export function printModule(m: Module): string {
  const out: string[] = [];
  const annotated = new Map<unknown, Annotations[]>();
  for (const a of m.annotations) {
    if (!a.target) continue;
    const list = annotated.get(a.target) ?? [];
    list.push(a);
    annotated.set(a.target, list);
  }
  const annotations = (node: unknown): void => {
    for (const a of annotated.get(node) ?? []) out.push(printAnnotations(a));
  };
  annotations(m.package);
  out.push(`package ${printRef(m.package.path.slice(1), true)}`);
  if (m.imports.length > 0) out.push("");
  for (const imp of m.imports) {
    annotations(imp);
    out.push(`import ${printTerm(imp.path)}${imp.alias ? ` as ${imp.alias}` : ""}`);
  }
  for (const rule of m.rules) {
    out.push("");
    annotations(rule);
    out.push(printRule(rule));
  }
  return out.join("\n") + "\n";
}

/** `# METADATA` followed by the block's YAML. */
export function printAnnotations(a: Annotations): string {
  const doc: Record<string, unknown> = { scope: a.scope };
  if (a.title !== undefined) doc["title"] = a.title;
  if (a.description !== undefined) doc["description"] = a.description;
  if (a.entrypoint) doc["entrypoint"] = true;
  if (a.organizations) doc["organizations"] = a.organizations;
  if (a.relatedResources) doc["related_resources"] = a.relatedResources;
  if (a.authors) doc["authors"] = a.authors;
  if (a.schemas) {
    doc["schemas"] = a.schemas.map((s) => ({
      [printTerm({ type: "ref", value: s.path, location: a.location })]:
        s.definition !== undefined ? s.definition : printTerm({ type: "ref", value: s.schema ?? [], location: a.location }),
    }));
  }
  if (a.custom) doc["custom"] = a.custom;
  const yaml = stringify(doc).trimEnd();
  return ["# METADATA", ...yaml.split("\n").map((l) => `# ${l}`)].join("\n");
}

export function printRule(rule: Rule): string {
  const head = rule.head;
  let s = rule.default ? "default " : "";
  // (a v0 partial set `p[x] { }` keeps the key out of its ref: it prints with `contains`)
  s += printRef(head.reference, true);
  if (head.args) s += `(${head.args.map((a) => paren(a, isKeyValueIn(a))).join(", ")})`;
  if (head.key && !head.value) s += ` contains ${printTerm(head.key)}`;
  if (head.value && !head.generatedValue) s += `${head.assign ? " :=" : " ="} ${printTerm(head.value)}`;
  if (!rule.default && !rule.generatedBody) s += ` if ${printBlock(rule.body, 0)}`;
  for (let e = rule.else; e; e = e.else) {
    s += " else";
    if (e.head.value && !e.head.generatedValue) s += `${e.head.assign ? " :=" : " ="} ${printTerm(e.head.value)}`;
    if (!e.generatedBody) s += ` if ${printBlock(e.body, 0)}`;
  }
  return s;
}

/** `{ ... }` with one expression per line, indented by `depth + 1` tabs. */
export function printBlock(body: Body, depth: number): string {
  const pad = "\t".repeat(depth + 1);
  return `{\n${body.map((e) => pad + printExpr(e, depth + 1)).join("\n")}\n${"\t".repeat(depth)}}`;
}

export function printBody(body: Body, form: Form = "rego"): string {
  return body.map((e) => printExpr(e, 0, false, form)).join("; ");
}

/** `operand`: the expression is an operand of `and`/`or`. There, and after `not`, a leading `{`
 * would open a body, so a term that prints with one is put in parentheses. */
export function printExpr(e: Expr, depth = 0, operand = false, form: Form = "rego"): string {
  let s = e.negated ? "not " : "";
  if (form === "opa") s += opaExprTerms(e.terms);
  else {
    let body = printExprTerms(e.terms, depth);
    if ((operand || e.negated) && body.startsWith("{")) body = unbrace(e.terms, depth);
    s += body;
  }
  for (const w of e.with) s += ` with ${printTerm(w.target, form)} as ${printTerm(w.value, form)}`;
  return s;
}

/** An expression's terms in OPA's String() form. */
function opaExprTerms(t: ExprTerms): string {
  if (Array.isArray(t)) return opaTerm({ type: "call", value: t, location: t[0]!.location });
  switch (t.type) {
    case "some":
      return `some ${t.symbols.map(opaTerm).join(", ")}`;
    case "every":
      return `every ${t.key ? `${opaTerm(t.key)}, ` : ""}${opaTerm(t.value)} in ${opaTerm(t.domain)} { ${printBody(t.body, "opa")} }`;
    case "and":
    case "or":
      return `{ ${printBody(t.lhs, "opa")} } ${t.type} { ${printBody(t.rhs, "opa")} }`;
    case "not":
      return `not { ${printBody(t.body, "opa")} }`;
    case "string":
    case "number":
    case "boolean":
    case "object":
    case "null":
    case "var":
    case "ref":
    case "array":
    case "set":
    case "arraycomprehension":
    case "setcomprehension":
    case "objectcomprehension":
    case "call":
    case "templatestring":
      return opaTerm(t);
    default:
      assertNever(t);
  }
}

function unbrace(t: ExprTerms, depth: number): string {
  if (Array.isArray(t)) {
    const op = operatorName(t[0]);
    if ((op === "eq" || op === "assign") && t.length === 3) {
      return `(${printTerm(t[1]!)}) ${op === "eq" ? "=" : ":="} ${printTerm(t[2]!)}`;
    }
  }
  // a call or a term in parentheses is the same call or term
  return `(${printExprTerms(t, depth)})`;
}

function printExprTerms(t: ExprTerms, depth: number): string {
  if (Array.isArray(t)) {
    const op = operatorName(t[0]);
    if ((op === "eq" || op === "assign") && t.length === 3) {
      return `${printTerm(t[1]!)} ${op === "eq" ? "=" : ":="} ${printTerm(t[2]!)}`;
    }
    return printTerm({ type: "call", value: t, location: t[0]!.location });
  }
  switch (t.type) {
    case "some": {
      const first = t.symbols[0];
      if (first && first.type === "call") {
        const [, ...args] = first.value;
        const domain = args.pop()!;
        return `some ${args.map((a) => printTerm(a)).join(", ")} in ${printTerm(domain)}`;
      }
      return `some ${t.symbols.map((x) => printTerm(x)).join(", ")}`;
    }
    case "every": {
      const vars = t.key ? `${printTerm(t.key)}, ${printTerm(t.value)}` : printTerm(t.value);
      return `every ${vars} in ${printTerm(t.domain)} ${printBlock(t.body, depth)}`;
    }
    case "and":
    case "or": {
      const prec = t.type === "and" ? 2 : 1;
      const lhs = printOperand(t.lhs, t.explicitLhs, prec, false, depth);
      const rhs = printOperand(t.rhs, t.explicitRhs, prec, true, depth);
      return `${lhs} ${t.type} ${rhs}`;
    }
    case "not": {
      if (t.explicitBody) return `not ${printBraceBody(t.body)}`;
      // `not x == 1` (with `future.keywords.not`): one plain expression, written as such
      const only = t.body.length === 1 ? t.body[0]! : undefined;
      if (only && !only.negated && only.with.length === 0 && !isLogicalTerms(only.terms)) return `not ${printExpr(only, depth, true)}`;
      // (several expressions: a body the compiler made, e.g. with calls hoisted into it)
      return only ? `not (${printBody(t.body)})` : `not ${printBraceBody(t.body)}`;
    }
    case "string":
    case "number":
    case "boolean":
    case "object":
    case "null":
    case "var":
    case "ref":
    case "array":
    case "set":
    case "arraycomprehension":
    case "setcomprehension":
    case "objectcomprehension":
    case "call":
    case "templatestring":
      return printTerm(t);
    default:
      assertNever(t);
  }
}

/** An operand of `and`/`or`: `{ body }` when explicit, else its one expression, in parentheses
 * when it is a logical expression that would otherwise regroup. */
function printOperand(body: Body, explicit: boolean, prec: number, right: boolean, depth: number): string {
  if (explicit) return printBraceBody(body);
  const e = body[0]!;
  // an operand's own `with` modifiers are scoped by parentheses
  if (e.with.length > 0) return `(${printExpr(e, depth)})`;
  const t = e.terms;
  if (!Array.isArray(t) && (t.type === "and" || t.type === "or") && !e.negated && e.with.length === 0) {
    const inner = t.type === "and" ? 2 : 1;
    if (inner < prec || (inner === prec && right)) return `(${printExpr(e, depth)})`;
  }
  return printExpr(e, depth, true);
}

/** `{ body }` of an operand or a `not`: a leading bare union `a | b` is put in parentheses, or it
 * would read as the set comprehension `{a | b}` (which the parser rejects as ambiguous). */
function printBraceBody(body: Body): string {
  const [first, ...rest] = body;
  const t = first?.terms;
  if (!first || first.negated || !Array.isArray(t) || t.length !== 3 || operatorName(t[0]) !== "or") return `{${printBody(body)}}`;
  const withs = first.with.map((w) => ` with ${printTerm(w.target)} as ${printTerm(w.value)}`).join("");
  return `{${[`(${printExprTerms(t, 0)})${withs}`, ...rest.map((e) => printExpr(e, 0))].join("; ")}}`;
}

function isLogicalTerms(t: ExprTerms): boolean {
  return !Array.isArray(t) && (t.type === "and" || t.type === "or" || t.type === "not");
}

function operatorName(t: Term | undefined): string | undefined {
  if (!t || t.type !== "ref") return undefined;
  if (t.value.length === 1 && t.value[0]!.type === "var") return t.value[0]!.value;
  if (t.value.length === 2 && t.value[0]!.type === "var" && t.value[0]!.value === "internal" && t.value[1]!.type === "string") {
    return `internal.${t.value[1]!.value}`;
  }
  return undefined;
}

/** Precedence of a term as printed (infix calls lower than atoms). */
function precedence(t: Term): number {
  if (t.type !== "call") return PREC_ATOM;
  const op = operatorName(t.value[0]);
  if (op === undefined) return PREC_ATOM;
  if (op === "internal.member_2" && t.value.length === 3) return PREC_IN;
  if (op === "internal.member_3" && t.value.length === 4) return PREC_IN;
  const infix = INFIX[op];
  return infix && t.value.length === 3 ? infix[1] : PREC_ATOM;
}

function paren(t: Term, needed: boolean): string {
  return needed ? `(${printTerm(t)})` : printTerm(t);
}

/** An element of a collection or a comprehension head: infix calls go in parentheses, so that
 * `|` and `,` keep their meaning (OPA's form has no infix calls). */
function element(t: Term, form: Form = "rego"): string {
  return form === "opa" ? printTerm(t, form) : paren(t, precedence(t) < PREC_ATOM);
}

export function printTerm(t: Term, form: Form = "rego"): string {
  const el = (x: Term): string => element(x, form);
  switch (t.type) {
    case "null":
      return "null";
    case "boolean":
      return String(t.value);
    case "number":
      return t.value;
    case "string":
      return JSON.stringify(t.value);
    case "var":
      return t.value.startsWith("$") ? "_" : t.value;
    case "ref":
      return printRef(t.value, false, form);
    case "array":
      return `[${t.value.map(el).join(", ")}]`;
    case "set":
      return t.value.length === 0 ? "set()" : `{${t.value.map(el).join(", ")}}`;
    case "object":
      return `{${t.value.map(([k, v]) => `${el(k)}: ${el(v)}`).join(", ")}}`;
    case "arraycomprehension":
      return `[${el(t.value.term)} | ${printBody(t.value.body, form)}]`;
    case "setcomprehension":
      return `{${el(t.value.term)} | ${printBody(t.value.body, form)}}`;
    case "objectcomprehension":
      return `{${el(t.value.key)}: ${el(t.value.value)} | ${printBody(t.value.body, form)}}`;
    case "call":
      if (form === "opa") return `${opaTerm(t.value[0]!)}(${t.value.slice(1).map(opaTerm).join(", ")})`;
      return printCall(t);
    case "templatestring":
      if (form === "opa") return t.location.text || '$"..."';
      return printTemplate(t.value.multiLine, t.value.parts);
    default:
      return assertNever(t);
  }
}

function printCall(t: Term & { type: "call" }): string {
  const [op, ...args] = t.value;
  const name = operatorName(op);
  const prec = precedence(t);
  if (prec === PREC_IN) {
    const domain = args[args.length - 1]!;
    const vars = args.slice(0, -1).map((a) => paren(a, precedence(a) <= PREC_IN));
    return `${vars.join(", ")} in ${paren(domain, precedence(domain) <= PREC_IN)}`;
  }
  if (name !== undefined && prec < PREC_ATOM) {
    const [symbol] = INFIX[name]!;
    const [l, r] = args as [Term, Term];
    // left-associative: the right operand needs parentheses at equal precedence
    return `${paren(l, precedence(l) < prec)} ${symbol} ${paren(r, precedence(r) <= prec)}`;
  }
  // a `k, v in xs` argument needs parentheses, or its comma would split it
  return `${printTerm(op!)}(${args.map((a) => paren(a, isKeyValueIn(a))).join(", ")})`;
}

function isKeyValueIn(t: Term): boolean {
  return precedence(t) === PREC_IN && t.type === "call" && t.value.length === 4;
}

/** A ref: `a.b[x]["c d"]`. With `bare` (package paths, rule heads) a leading string prints as
 * a name. */
export function printRef(ref: Term[], bare: boolean, form: Form = "rego"): string {
  let s = "";
  ref.forEach((t, i) => {
    if (i === 0) {
      if (form === "opa") s += printTerm(t, form);
      else if (t.type === "var" || (bare && t.type === "string")) s += t.value;
      else if (t.type === "call" || t.type === "ref") s += printTerm(t);
      else s += element(t);
      return;
    }
    if (t.type === "string" && dotted(t.value, form)) s += `.${t.value}`;
    else s += `[${printTerm(t, form)}]`;
  });
  return s;
}

function printTemplate(multiLine: boolean, parts: (Term | Expr)[]): string {
  const close = multiLine ? "`" : '"';
  let s = `$${close}`;
  let prev: string | undefined;
  for (const p of parts) {
    const afterString = prev === "string";
    prev = p.type;
    if (p.type === "string" && afterString) {
      // two string parts in a row: the second came from an expression (`{"x"}`)
      s += `{${printTerm(p)}}`;
    } else if (p.type === "string") {
      s += multiLine ? p.value.replace(/\{/g, "\\{") : JSON.stringify(p.value).slice(1, -1).replace(/\{/g, "\\{");
    } else if (p.type === "expr") {
      s += `{${printExpr(p)}}`;
    } else {
      s += `{${printTerm(p)}}`;
    }
  }
  return s + close;
}
