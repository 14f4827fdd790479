// RewriteRegoMetadataCalls: `rego.metadata.chain()` and `rego.metadata.rule()` are answered at
// compile time. A rule calling them gets the value bound first in its body (the chain: the rule's
// own annotations, then document, package and subpackages scope, each with its path; the rule
// annotations: the closest rule-scope block, or {}), and each call becomes that variable.
import type { Annotations, Body, Expr, Module, NodeLocation, Ref, Rule, Term } from "../ast/nodes.js";
import type { CompileContext } from "./context.js";
import { eqExpr, groundPrefix, isCallExpr, operatorName, varTerm } from "../ast/terms.js";
import { walkBodies, walkExprs } from "../ast/visit.js";

const CHAIN = "rego.metadata.chain";
const RULE = "rego.metadata.rule";

export function rewriteRegoMetadataCalls(ctx: CompileContext): void {
  const chainAllowed = ctx.builtins.has(CHAIN);
  const ruleAllowed = ctx.builtins.has(RULE);
  for (const m of ctx.modules) {
    if (!ctx.mayContain(m, (f) => f.calls.has(CHAIN) || f.calls.has(RULE))) continue;
    for (const top of m.rules) {
      for (let r: Rule | undefined = top; r; r = r.else) {
        let chainCall: Expr | undefined;
        let ruleCall: Expr | undefined;
        const find = (e: Expr): void => {
          if (!isCallExpr(e)) return;
          const name = operatorName(e);
          if (chainAllowed && !chainCall && name === CHAIN) chainCall = e;
          else if (ruleAllowed && !ruleCall && name === RULE) ruleCall = e;
        };
        walkExprs(r.head, find);
        walkExprs(r.body, find);
        if (!chainCall && !ruleCall) continue;
        const prefix: Body = [];
        let chainVar: string | undefined;
        let ruleVar: string | undefined;
        if (chainCall) {
          chainVar = ctx.gen.generate();
          const loc = chainCall.location;
          prefix.push(eqExpr(varTerm(chainVar, loc), toTerm(chain(ctx, m, r), loc), loc, true));
        }
        if (ruleCall) {
          ruleVar = ctx.gen.generate();
          const loc = ruleCall.location;
          const primary = ruleScope(r)[0];
          prefix.push(eqExpr(varTerm(ruleVar, loc), toTerm(primary ? annotationValue(primary) : {}, loc), loc, true));
        }
        r.body.unshift(...prefix);
        const replace = (b: Body): void => {
          b.forEach((e, i) => {
            if (!isCallExpr(e)) return;
            const name = operatorName(e);
            const v = name === CHAIN ? chainVar : name === RULE ? ruleVar : undefined;
            if (v === undefined) return;
            const out = e.terms[1];
            const x = out ? eqExpr(out, varTerm(v, e.location), e.location, true) : { ...e, terms: varTerm(v, e.location), generated: true };
            x.with = e.with;
            b[i] = x;
          });
        };
        walkBodies(r.head, replace);
        walkBodies(r.body, replace);
      }
    }
  }
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

function ruleScope(r: Rule): Annotations[] {
  return r.annotations
    .filter((a) => a.scope === "rule")
    .sort((a, b) => b.location.row - a.location.row || b.location.col - a.location.col);
}

function pathOf(ref: Ref): Json[] {
  return ref.slice(1).map((t) => (t.type === "string" ? t.value : String((t as { value: unknown }).value)));
}

function chain(ctx: CompileContext, m: Module, r: Rule): Json[] {
  const out: Json[] = [];
  const rulePath = pathOf(groundPrefix(ctx.ruleRef(r)));
  const own = ruleScope(r);
  if (own.length > 0) for (const a of own) out.push({ path: rulePath, annotations: annotationValue(a) });
  else out.push({ path: rulePath });
  const doc = r.annotations.find((a) => a.scope === "document");
  if (doc) out.push({ path: rulePath, annotations: annotationValue(doc) });
  const pkgKey = m.package.path.map((t) => (t as { value: string }).value).join(".");
  const pkgAnnots: Annotations[] = [];
  const subAnnots = new Map<string, Annotations>();
  for (const mod of ctx.modules) {
    const key = mod.package.path.map((t) => (t as { value: string }).value).join(".");
    for (const a of mod.annotations) {
      if (a.target?.type !== "package") continue;
      if (a.scope === "package" && key === pkgKey) pkgAnnots.push(a);
      if (a.scope === "subpackages" && (pkgKey === key || pkgKey.startsWith(`${key}.`))) subAnnots.set(key, a);
    }
  }
  if (pkgAnnots[0]) out.push({ path: pathOf(m.package.path), annotations: annotationValue(pkgAnnots[0]) });
  for (const key of [...subAnnots.keys()].sort((a, b) => b.length - a.length)) {
    out.push({ path: key.split(".").slice(1), annotations: annotationValue(subAnnots.get(key)!) });
  }
  return out;
}

/** OPA's JSON form of an annotation block (the fields that are set). */
export function annotationValue(a: Annotations): Json {
  const o: { [k: string]: Json } = { scope: a.scope };
  if (a.title) o.title = a.title;
  if (a.entrypoint) o.entrypoint = true;
  if (a.description) o.description = a.description;
  if (a.organizations?.length) o.organizations = a.organizations;
  if (a.relatedResources?.length) {
    o.related_resources = a.relatedResources.map((r): Json => (r.description ? { ref: r.ref, description: r.description } : { ref: r.ref }));
  }
  if (a.authors?.length) {
    o.authors = a.authors.map((x) => {
      const au: { [k: string]: Json } = {};
      if (x.name) au.name = x.name;
      if (x.email) au.email = x.email;
      return au;
    });
  }
  if (a.schemas?.length) {
    o.schemas = a.schemas.map((s) => {
      const so: { [k: string]: Json } = { path: s.path.map((t) => String((t as { value: unknown }).value)) };
      if (s.schema) so.schema = s.schema.map((t) => String((t as { value: unknown }).value));
      if (s.definition !== undefined) so.definition = s.definition as Json;
      return so;
    });
  }
  if (a.custom && Object.keys(a.custom).length > 0) o.custom = a.custom as Json;
  return o;
}

/** A JSON value as a constant term. */
export function toTerm(v: unknown, location: NodeLocation): Term {
  if (v === null || v === undefined) return { type: "null", value: null, location };
  if (typeof v === "boolean") return { type: "boolean", value: v, location };
  if (typeof v === "number") return { type: "number", value: String(v), location };
  if (typeof v === "string") return { type: "string", value: v, location };
  if (Array.isArray(v)) return { type: "array", value: v.map((x) => toTerm(x, location)), location };
  if (v instanceof Map) return { type: "object", value: [...v].map(([k, x]) => [toTerm(k, location), toTerm(x, location)] as [Term, Term]), location };
  return {
    type: "object",
    value: Object.keys(v as object).map((k) => [toTerm(k, location), toTerm((v as Record<string, unknown>)[k], location)] as [Term, Term]),
    location,
  };
}
