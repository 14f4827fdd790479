// Data-filter compilation with OPA's compile-API contract (OPA >= 1.9, `POST /v1/compile/{path}`):
// the residual queries of a partial evaluation become a SQL WHERE clause or a UCAST condition
// tree per target, with the masks of a mask rule, in OPA's response shape:
//   { result: { query, masks? } }            one target; no `result` when the policy denies all
//   { result: { ucast?, postgresql?, ... } } a multi-target request
// Allow-all is "" (SQL) or {} (UCAST).
import type { Body, Module, Ref, Rule, Term } from "../ast/nodes.js";
import { RegoErrors, type Location } from "../../runtime/errors.js";
import { invalidUnknownError } from "./errors.js";
import type { JSONValue } from "../../runtime/value/json.js";
import { readResiduals } from "./fragment.js";
import { mappingFor, shortNames, type Mappings } from "./mappings.js";
import { toSql } from "./sql.js";
import { constraintFor, parseTarget, resultKey, type SqlDialect } from "./targets.js";
import { toUcast, type UcastNode } from "./ucast.js";

export { parseTarget, MULTITARGET_MEDIA_TYPE, type FilterTarget, type SqlDialect, type UcastVariant } from "./targets.js";
export type { UcastNode } from "./ucast.js";
export type { Mappings } from "./mappings.js";

/** What partial evaluation answers: one body per disjunct (none: deny), and support modules. */
export interface Residuals {
  queries: readonly Body[];
  support?: readonly Module[];
}

export interface TranslateOptions {
  /** OPA's media type (`application/vnd.opa.sql.postgresql+json`) or short name (`postgresql`,
   * `ucast.prisma`, `multitarget`). */
  target: string;
  /** The targets of a multi-target request, as OPA writes them: `sql+postgresql`, `ucast+prisma`. */
  targetDialects?: readonly string[];
  /** OPA's `targetSQLTableMappings`: `{fruits: {$self: "fruit", name: "fruit_name"}}`, per dialect
   * or target (`{postgresql: {...}}`, `{ucast: {...}}`) or for all. */
  tableMappings?: Mappings;
  /** The value of the evaluated mask rule (included when it is a non-empty object). */
  masks?: JSONValue;
}

export interface FilterResult {
  query: string | UcastNode | Record<string, never>;
  masks?: { [key: string]: JSONValue };
}

export type MultiTargetResult = Partial<Record<"ucast" | SqlDialect, FilterResult>>;

/** OPA's response body: `result` is absent when the filter denies every row (one target). */
export interface CompileFilterResponse {
  result?: FilterResult | MultiTargetResult;
}

/**
 * Translates residual queries for the target(s). Every expression outside what the targets can
 * express is a pe_fragment_error at its location (all of them, as RegoErrors when several);
 * an unknown target is an invalid_parameter error.
 */
export function translate(residuals: Residuals, options: TranslateOptions): CompileFilterResponse {
  const { multi, targets } = parseTarget(options.target, options.targetDialects);
  const constraints = targets.map(constraintFor);
  const mappings = targets.map((t) => mappingFor(options.tableMappings, t));
  const shorts = new Set(mappings.flatMap((m) => [...shortNames(m)]));
  const { disjunction, errors } = readResiduals(residuals.queries, residuals.support ?? [], constraints, shorts);
  if (errors.length === 1) throw errors[0]!;
  if (errors.length > 1) throw new RegoErrors(errors);
  const masks = options.masks;
  const withMasks = (query: FilterResult["query"]): FilterResult =>
    typeof masks === "object" && masks !== null && !Array.isArray(masks) && Object.keys(masks).length > 0 ? { query, masks } : { query };
  const results = targets.map((t, i) => {
    if (residuals.queries.length === 0) return undefined;
    const m = mappings[i]!;
    return withMasks(t.kind === "ucast" ? toUcast(disjunction, m) : toSql(disjunction, m, t.dialect));
  });
  if (!multi) return results[0] ? { result: results[0] } : {};
  const out: MultiTargetResult = {};
  targets.forEach((t, i) => {
    const key = resultKey(t);
    const r = results[i];
    if (r && !(key in out)) out[key] = r;
  });
  return { result: out };
}

/** What `compile:` METADATA annotations say for the rule at a path: unknowns (from the whole
 * chain: rule, document, package and subpackages scope) and the mask rule (the closest). */
export interface CompileAnnotations {
  unknowns: Ref[];
  maskRule?: Ref;
}

/** Reads the `compile:` annotations that cover the rules at `path` (`data.filters.include` as
 * refs' strings: ["filters", "include"]). A relative mask rule is resolved in the rule's package. */
export function compileAnnotations(modules: readonly Module[], path: readonly string[]): CompileAnnotations {
  const out: CompileAnnotations = { unknowns: [] };
  const pkgOf = (m: Module) => m.package.path.slice(1).map((t) => String(t.value));
  const chain: { a: NonNullable<Module["annotations"][number]["compile"]>; pkg: string[]; loc: Module["annotations"][number]["location"] }[] = [];
  const ruleScopes: Rule[] = [];
  for (const m of modules) {
    const pkg = pkgOf(m);
    if (pkg.length > path.length || !pkg.every((p, i) => p === path[i])) continue;
    for (const r of m.rules) {
      const name = r.head.reference.map((t) => String(t.value));
      if (pkg.length === path.length - name.length && name.every((p, i) => p === path[pkg.length + i])) ruleScopes.push(r);
    }
  }
  for (const r of ruleScopes) {
    const m = modules.find((mm) => mm.rules.includes(r))!;
    for (const a of r.annotations) if (a.compile) chain.push({ a: a.compile, pkg: pkgOf(m), loc: a.location });
  }
  for (const m of modules) {
    const pkg = pkgOf(m);
    for (const a of m.annotations) {
      if (!a.compile || a.target?.type !== "package") continue;
      const own = pkg.length === path.length - 1 && pkg.every((p, i) => p === path[i]);
      const sub = a.scope === "subpackages" && pkg.length < path.length && pkg.every((p, i) => p === path[i]);
      if ((a.scope === "package" && own) || sub) chain.push({ a: a.compile, pkg, loc: a.location });
    }
  }
  for (const { a, pkg } of chain) {
    out.unknowns.push(...(a.unknowns ?? []));
    if (!out.maskRule && a.maskRule) out.maskRule = resolveMaskRule(a.maskRule, pkg);
  }
  for (const u of out.unknowns) checkUnknown(u, chain[0]?.loc);
  return out;
}

/** A mask rule not written from `data` is relative to the package (`masks` → data.filters.masks). */
export function resolveMaskRule(ref: Ref, pkg: readonly string[]): Ref {
  const head = ref[0];
  if (head?.type === "var" && head.value === "data") return ref;
  const loc = head!.location;
  const str = (value: string): Term => ({ type: "string", value, location: loc });
  const first: Term = head!.type === "var" ? str(head!.value) : head!;
  return [{ type: "var", value: "data", location: loc }, ...pkg.map(str), first, ...ref.slice(1)];
}

/** Unknowns are refs rooted at input or data (OPA's invalid_unknown otherwise). */
export function checkUnknown(ref: Ref, location?: Location): void {
  const head = ref[0];
  if (head?.type !== "var" || (head.value !== "input" && head.value !== "data")) {
    throw invalidUnknownError(`unknowns must be prefixed with \`input\` or \`data\`: ${ref.map((t) => String(t.value)).join(".")}`, location);
  }
}
