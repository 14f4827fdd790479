// Schemas in the type checker, as OPA applies them: the set's root schema (key `schema`) types
// `input` everywhere; `schemas:` entries of METADATA annotations type `input` or `data` paths
// for the rules they cover. A rule gets the entries of its subpackages scopes (outermost first),
// its package scope, its document scope and its rule scope, in that order, each one applied
// over the ones before (the rule's own entries win). An entry naming a schema of the set
// (`schema.x`) is skipped when the compilation has no schema set, as in OPA; one naming a schema
// the set lacks, or a schema that cannot be read, is a type error at the rule.
import type { Annotations, Module, NodeLocation, Ref, Rule, SchemaAnnotation, Term } from "../../ast/nodes.js";
import type { CompileContext } from "../context.js";
import { opaRef } from "../../ast/print.js";
import { constantJson, NOT_JSON, TypeEnv } from "./env.js";
import { SchemaError, SchemaSet } from "./schema.js";
import { A, obj, type Type } from "./types.js";

/** OPA's message for an entry naming a schema the set lacks (reported as it is). */
class UndefinedSchema extends SchemaError {}

/** A cache: each compilation's schema scopes (null: none), made when first asked for. */
const scopesOf = new WeakMap<CompileContext, SchemaScopes | null>();

const INPUT: Ref = [{ type: "var", value: "input" } as Term];

export class SchemaScopes {
  /** Package path (dotted) → its package-scope annotations; subpackages-scope ones likewise. */
  private readonly packageScope = new Map<string, Annotations[]>();
  private readonly subpackagesScope = new Map<string, Annotations[]>();
  /** What inline schemas resolve set references against when there is no set. */
  private empty: SchemaSet | undefined;

  private constructor(
    private readonly ctx: CompileContext,
    private readonly set: SchemaSet | undefined,
  ) {
    for (const m of ctx.modules) {
      for (const a of m.annotations) {
        if (!a.schemas?.length || a.target?.type !== "package") continue;
        const scopes = a.scope === "package" ? this.packageScope : a.scope === "subpackages" ? this.subpackagesScope : undefined;
        if (!scopes) continue;
        const key = packageKey(m);
        scopes.set(key, [...(scopes.get(key) ?? []), a]);
      }
    }
  }

  /** The schemas of a compilation, or undefined when none is in play (no set, no annotation
   * with `schemas:`): then the checker does nothing more than without this feature. */
  static of(ctx: CompileContext): SchemaScopes | undefined {
    // one answer per compilation: every query compiled against the modules asks again, and the
    // modules' annotations do not change once they are compiled
    let s = scopesOf.get(ctx);
    if (s === undefined) scopesOf.set(ctx, (s = SchemaScopes.make(ctx) ?? null));
    return s ?? undefined;
  }

  private static make(ctx: CompileContext): SchemaScopes | undefined {
    if (!ctx.schemas && !ctx.modules.some((m) => m.annotations.some((a) => (a.schemas?.length ?? 0) > 0))) return undefined;
    return new SchemaScopes(ctx, ctx.schemas);
  }

  /** Types `input` in the root environment with the set's root schema, if it has one. */
  applyInput(env: TypeEnv): void {
    if (!this.set?.has("schema")) return;
    try {
      env.put(INPUT, this.set.typeOf("schema"));
    } catch (e) {
      if (!(e instanceof SchemaError)) throw e;
      this.ctx.err("rego_type_error", e.message, undefined);
    }
  }

  /** Puts the types of the schemas covering `rule` into `env` (an environment of its own). */
  applyRule(env: TypeEnv, rule: Rule, m: Module): void {
    for (const a of this.chain(rule, m)) {
      for (const s of a.schemas ?? []) this.applyEntry(env, s, a.location, rule.location);
    }
  }

  /**
   * What the schemas in scope say about `rule`'s documents, for the code generator's entrypoint
   * types: the type of `input` (undefined when no schema applies to it) and, for each `data` path
   * an annotation names, its type. Worked out as the checker does (applyInput, then applyRule on
   * a fresh environment), after the check: a schema that could not be read was reported then.
   */
  documentTypes(rule: Rule, m: Module): { input: Type | undefined; data: Array<{ path: Ref; type: Type }> } {
    const env = new TypeEnv(undefined, () => undefined);
    this.applyInput(env);
    const scoped = env.wrap();
    this.applyRule(scoped, rule, m);
    const entries = this.chain(rule, m).flatMap((a) => a.schemas ?? []);
    const root = (s: SchemaAnnotation) => (s.path[0]?.type === "var" ? s.path[0].value : undefined);
    const typed = (this.set?.has("schema") ?? false) || entries.some((s) => root(s) === "input" && this.entryTypeOrUndefined(s));
    const data: Array<{ path: Ref; type: Type }> = [];
    for (const s of entries) {
      if (root(s) !== "data" || !this.entryTypeOrUndefined(s)) continue;
      const i = data.findIndex((d) => opaRef(d.path) === opaRef(s.path));
      if (i >= 0) data.splice(i, 1);
      data.push({ path: s.path, type: scoped.getRef(s.path) ?? A });
    }
    return { input: typed ? scoped.getRef(INPUT) : undefined, data };
  }

  /** An entry's type, or undefined when it has none (no set) or cannot be read. */
  private entryTypeOrUndefined(s: SchemaAnnotation): Type | undefined {
    try {
      return this.entryType(s);
    } catch (e) {
      if (e instanceof SchemaError) return undefined;
      throw e;
    }
  }

  /** The annotations that may type a rule, outermost first. */
  private chain(rule: Rule, m: Module): Annotations[] {
    const out: Annotations[] = [];
    const path = packageKey(m);
    const prefixes = [...this.subpackagesScope.keys()].filter((k) => path === k || path.startsWith(`${k}.`)).sort((a, b) => a.length - b.length);
    for (const k of prefixes) out.push(...this.subpackagesScope.get(k)!);
    out.push(...(this.packageScope.get(path) ?? []));
    for (const scope of ["document", "rule"]) out.push(...rule.annotations.filter((a) => a.scope === scope && a.schemas?.length));
    return out;
  }

  /** Errors are reported at the rule, as OPA reports them; a schema that cannot be read also
   * says which annotation named it. */
  private applyEntry(env: TypeEnv, s: SchemaAnnotation, annotation: NodeLocation, at: NodeLocation): void {
    let t: Type | undefined;
    try {
      t = this.entryType(s);
    } catch (e) {
      if (!(e instanceof SchemaError)) throw e;
      const where = e instanceof UndefinedSchema ? "" : ` (schemas annotation at ${annotation.file}:${annotation.row}:${annotation.col})`;
      this.ctx.err("rego_type_error", e.message + where, at);
      return;
    }
    if (!t) return;
    const prefix = shortestTypedPrefix(env, s.path);
    if (!prefix || prefix.ref.length === s.path.length) {
      env.put(s.path, t);
      return;
    }
    const keys = s.path.slice(prefix.ref.length).map(constantJson);
    if (keys.includes(NOT_JSON)) {
      this.ctx.err("rego_type_error", `schema annotation path ${opaRef(s.path)} is not a path of constant keys`, at);
      return;
    }
    env.put(prefix.ref, override(keys, prefix.type, t));
  }

  /** The type an entry gives its path; undefined when it names a schema and there is no set. */
  private entryType(s: SchemaAnnotation): Type | undefined {
    if (!s.schema) return this.setOrEmpty().typeOfDefinition(s.definition, `for ${opaRef(s.path)}`);
    if (!this.set) return undefined;
    const key = opaRef(s.schema);
    const t = this.set.typeOf(key);
    if (!t) throw new UndefinedSchema(`undefined schema: ${key}`);
    return t;
  }

  /** Inline schemas may refer to the set's schemas; without a set, to none. */
  private setOrEmpty(): SchemaSet {
    return this.set ?? (this.empty ??= new SchemaSet({}));
  }
}

function packageKey(m: Module): string {
  return opaRef(m.package.path);
}

/** The shortest prefix of `ref` the environment has a type for (`input` and `data` always). */
function shortestTypedPrefix(env: TypeEnv, ref: Ref): { ref: Ref; type: Type } | undefined {
  for (let i = 1; i <= ref.length; i++) {
    const p = ref.slice(0, i);
    const t = env.getRef(p);
    if (t) return { ref: p, type: t };
  }
  return undefined;
}

/** `t` with the value at `keys` replaced by `o` (objects along the way made as needed; a
 * non-object along the way becomes an open object). */
function override(keys: unknown[], t: Type, o: Type): Type {
  if (keys.length === 0) return o;
  if (t.kind !== "object") return nest(keys, o, { key: A, value: A });
  const k = JSON.stringify(keys[0]);
  let found = false;
  const stat = t.static.map((p) => {
    if (JSON.stringify(p.key) !== k) return p;
    found = true;
    return { key: p.key, value: override(keys.slice(1), p.value ?? A, o) };
  });
  if (!found) stat.push({ key: keys[0], value: keys.length === 1 ? o : nest(keys.slice(1), o, t.dynamic) });
  return obj(stat, t.dynamic);
}

function nest(keys: unknown[], o: Type, dyn: { key: Type; value: Type } | undefined): Type {
  if (keys.length === 0) return o;
  return obj([{ key: keys[0], value: nest(keys.slice(1), o, dyn) }], dyn);
}
