// The Rego AST. It mirrors OPA's model (v1/ast/term.go, v1/ast/policy.go) closely, so that the
// compiler passes and the planner can follow OPA's own stages, and so that the export to OPA's
// AST JSON (opaJson.ts) is nearly direct: every term is `{type, value, location}` with OPA's type
// names.
//
// What the parser rewrites at parse time (all as OPA's parser does):
// - `package a.b` becomes the path `data.a.b` (a ref whose first term is the var `data`, the rest
//   strings); `import input.x` keeps its ref; a bare `data`/`input` term becomes a one-term ref.
// - Every `_` becomes a fresh var `$0`, `$1`, ... (numbered per parse, in source order).
// - Infix operators become calls of OPA's operator refs: `a + b` → `plus(a, b)`, `a == b` →
//   `equal(a, b)`, `a | b` → `or(a, b)`, `x in xs` → `internal.member_2(x, xs)`,
//   `k, v in xs` → `internal.member_3(k, v, xs)`. An expression whose top term is a call, and
//   `a = b` / `a := b`, are stored as an operator expr (`terms` is `[operator, ...args]`).
// - `set()` becomes the empty set; `-1` is the number `-1` (its text kept exactly, as are big
//   integers and exponents: numbers are never converted).
// - `some x in xs` is a SomeDecl with the one symbol `internal.member_2(x, xs)`.
// - Rules: `p.q.r := 1` (ref heads), `p contains x` (key, no value), v0 `p[x] { }` (partial set:
//   name p, ref [p], key x), `p[x] if` / `p[x] := v` (ref head [p, x]; a non-ground or ref last
//   term is also the key), a missing value becomes `true` (`generatedValue`), a missing body
//   becomes `true` (`generatedBody`), `default p := v` gets the body `true`, `if {...} {...}`
//   becomes one rule per body (same head), `else` chains hang off `Rule.else`, and a bodiless
//   statement such as `a.b.c = 1` or `f(x) = y` or `p[x]` becomes a rule (OPA's "rule from body").
// - `future.keywords.*`, `rego.v1` and `rego.v2` imports activate keywords; they stay in `imports`.
// - `and`/`or` keyword expressions (when activated) and, with `future.keywords.not`, `not x`,
//   `not (...)` and `not {...}` become the Logical / NotGroup expression terms below (OPA's newest
//   syntax); without that import `not x` is a negated expression.
// - `# METADATA` comment blocks are parsed as YAML into Annotations, attached to the following
//   package or rule.
import type { Location } from "../../runtime/errors.js";

/** Every node's location: OPA's row/col (1-based, col counted in code points) plus the UTF-16
 * offset that row/col point at and the source text the node spans. */
export interface NodeLocation extends Location {
  readonly file: string;
  readonly row: number;
  readonly col: number;
  readonly offset: number;
  readonly text: string;
  /** Row and col at once, where working them out costs (a parsed node's location). */
  position?(): { readonly row: number; readonly col: number };
}

/** "v0" (original syntax), "v0v1" (v0 module that imports rego.v1 or rego.v2: both rule sets
 * apply), "v1". */
export type RegoVersion = "v0" | "v0v1" | "v1";

// ---------------------------------------------------------------------------------------------
// Terms (a discriminated union on `type`, with OPA's type names)

interface TermBase {
  location: NodeLocation;
}

export interface NullTerm extends TermBase {
  type: "null";
  value: null;
}
export interface BooleanTerm extends TermBase {
  type: "boolean";
  value: boolean;
}
/** The number's source text, exactly (e.g. "1e6", "-0.5", "12345678901234567890"). */
export interface NumberTerm extends TermBase {
  type: "number";
  value: string;
}
export interface StringTerm extends TermBase {
  type: "string";
  value: string;
}
export interface VarTerm extends TermBase {
  type: "var";
  value: string;
}
/** A ref: the first term is a var, or a call/collection/comprehension; the rest are operands. */
export interface RefTerm extends TermBase {
  type: "ref";
  value: Term[];
}
export interface ArrayTerm extends TermBase {
  type: "array";
  value: Term[];
}
/** Key/value pairs in source order. */
export interface ObjectTerm extends TermBase {
  type: "object";
  value: [Term, Term][];
}
/** Elements in source order (duplicates are not removed at parse time). */
export interface SetTerm extends TermBase {
  type: "set";
  value: Term[];
}
export interface ArrayComprehensionTerm extends TermBase {
  type: "arraycomprehension";
  value: { term: Term; body: Body };
}
export interface SetComprehensionTerm extends TermBase {
  type: "setcomprehension";
  value: { term: Term; body: Body };
}
export interface ObjectComprehensionTerm extends TermBase {
  type: "objectcomprehension";
  value: { key: Term; value: Term; body: Body };
}
/** A call nested in a term: `[operator ref, ...args]`. */
export interface CallTerm extends TermBase {
  type: "call";
  value: Term[];
}
/** `$"a {x} b"` (multiLine false) or `` $`a {x} b` `` (multiLine true). Parts are string terms,
 * scalar terms, or the expressions between braces. Empty string parts are dropped. */
export interface TemplateStringTerm extends TermBase {
  type: "templatestring";
  value: { multiLine: boolean; parts: (Term | Expr)[] };
}

export type Term =
  | NullTerm
  | BooleanTerm
  | NumberTerm
  | StringTerm
  | VarTerm
  | RefTerm
  | ArrayTerm
  | ObjectTerm
  | SetTerm
  | ArrayComprehensionTerm
  | SetComprehensionTerm
  | ObjectComprehensionTerm
  | CallTerm
  | TemplateStringTerm;

export type TermType = Term["type"];
export type Ref = Term[];

// ---------------------------------------------------------------------------------------------
// Expressions

export type Body = Expr[];

export interface Expr {
  type: "expr";
  /** Position in the enclosing body (0-based). */
  index: number;
  /** A single term, an operator call `[operator, ...args]`, or one of the declaration forms. */
  terms: ExprTerms;
  negated: boolean;
  with: With[];
  /** Set by compiler rewrites, never by the parser. */
  generated: boolean;
  /** Written with `:=`, which RewriteLocalVars turns into `=`: unification through it is one-way,
   * right to left, for the safety check. Set by that stage only. */
  assigned?: boolean;
  location: NodeLocation;
}

export type ExprTerms = Term | Term[] | SomeDecl | Every | LogicalExpr | NotGroup;

export interface With {
  type: "with";
  target: Term;
  value: Term;
  location: NodeLocation;
}

/** `some x, y` (symbols are vars) or `some x in xs` / `some k, v in xs` (one member call). */
export interface SomeDecl {
  type: "some";
  symbols: Term[];
  location: NodeLocation;
}

export interface Every {
  type: "every";
  key?: Term;
  value: Term;
  domain: Term;
  body: Body;
  location: NodeLocation;
}

/** `lhs and rhs` / `lhs or rhs`: each operand is a body; `explicit*` when written as `{ ... }`. */
export interface LogicalExpr {
  type: "and" | "or";
  lhs: Body;
  rhs: Body;
  explicitLhs: boolean;
  explicitRhs: boolean;
  location: NodeLocation;
}

/** `not (a or b)` and, with `future.keywords.not`, `not x == 1` (explicitBody false: a body of one
 * expression), or `not { ... }` (explicitBody true). */
export interface NotGroup {
  type: "not";
  body: Body;
  explicitBody: boolean;
  location: NodeLocation;
}

// ---------------------------------------------------------------------------------------------
// Statements

export interface Package {
  type: "package";
  /** `data` followed by string terms. */
  path: Ref;
  location: NodeLocation;
}

export interface Import {
  type: "import";
  /** A ref term: `data.x.y`, `input.x`, `future.keywords.in`, `rego.v1`. */
  path: Term;
  alias?: string;
  location: NodeLocation;
}

/** Which keywords the rule was written with; the v1 checks and the printer use them. */
export type HeadKeyword = "if" | "contains";

export interface Head {
  type: "head";
  /** Set for rules whose ref is one var, and for v0-style `p[x]` partial rules (back-compat). */
  name?: string;
  /** The rule's ref (`p`, `p.q.r`, `p[x]`); first term a var. */
  reference: Ref;
  /** Function arguments, when the head is `f(...)`. */
  args?: Term[];
  /** Partial set element / partial object key. */
  key?: Term;
  value?: Term;
  /** Written with `:=`. */
  assign: boolean;
  /** The value was not written (it is the generated `true`). */
  generatedValue: boolean;
  keywords: HeadKeyword[];
  location: NodeLocation;
}

export interface Rule {
  type: "rule";
  default: boolean;
  head: Head;
  body: Body;
  else?: Rule;
  /** The body was not written (it is the generated `true`). */
  generatedBody: boolean;
  annotations: Annotations[];
  location: NodeLocation;
}

export interface Comment {
  type: "comment";
  /** The comment's text after `#`. */
  text: string;
  location: NodeLocation;
}

export interface AuthorAnnotation {
  name: string;
  email?: string;
}
export interface RelatedResourceAnnotation {
  ref: string;
  description?: string;
}
export interface SchemaAnnotation {
  path: Ref;
  schema?: Ref;
  definition?: unknown;
}
export interface CompileAnnotation {
  unknowns?: Ref[];
  maskRule?: Ref;
}

/** A `# METADATA` block. `target` is the package or rule it is attached to. */
export interface Annotations {
  type: "annotations";
  scope: string;
  title?: string;
  description?: string;
  entrypoint: boolean;
  organizations?: string[];
  relatedResources?: RelatedResourceAnnotation[];
  authors?: AuthorAnnotation[];
  schemas?: SchemaAnnotation[];
  compile?: CompileAnnotation;
  custom?: Record<string, unknown>;
  target?: Package | Rule | Import;
  location: NodeLocation;
}

export interface Module {
  type: "module";
  package: Package;
  imports: Import[];
  rules: Rule[];
  annotations: Annotations[];
  comments: Comment[];
  regoVersion: RegoVersion;
}

export type Statement = Package | Import | Rule | Body | Annotations;

/** Any AST node that `walk` visits. */
export type Node =
  | Module
  | Package
  | Import
  | Rule
  | Head
  | Expr
  | With
  | SomeDecl
  | Every
  | LogicalExpr
  | NotGroup
  | Term
  | Comment
  | Annotations;
