// Token types. Each carries its own flags (acorn's habit): the label OPA's errors use for it,
// whether errors call it a "keyword" or a "token", and for infix operators their binding
// precedence. Compare token types by identity (`tok === tt.comma`).

export class TokenType {
  /** Errors say "keyword" rather than "token". */
  readonly keyword: boolean;
  /** Binding precedence of an infix term operator (higher binds tighter; 0: not one). */
  readonly binop: number;

  constructor(
    /** OPA's name for the token, as errors print it ("identifier", "plus", "[", "eof", ...). */
    readonly label: string,
    opts: { keyword?: boolean; binop?: number } = {},
  ) {
    this.keyword = opts.keyword === true;
    this.binop = opts.binop ?? 0;
  }
}

const kw = (label: string) => new TokenType(label, { keyword: true });
const op = (label: string, binop: number) => new TokenType(label, { binop });

/** Precedence levels of the infix term operators, loosest first (`in` is handled apart). */
export const PREC_RELATION = 1;
export const PREC_UNION = 2;
export const PREC_INTERSECT = 3;
export const PREC_ARITH = 4;
export const PREC_FACTOR = 5;

export const tt = {
  illegal: new TokenType("illegal"),
  eof: new TokenType("eof"),
  whitespace: new TokenType("whitespace"),
  ident: new TokenType("identifier"),
  comment: new TokenType("comment"),

  // keywords of every version
  package: kw("package"),
  import: kw("import"),
  as: kw("as"),
  default: kw("default"),
  else: kw("else"),
  not: kw("not"),
  some: kw("some"),
  with: kw("with"),
  null: kw("null"),
  true: kw("true"),
  false: kw("false"),

  // literals
  number: new TokenType("number"),
  string: new TokenType("string"),
  templatePart: new TokenType("template-string-part"),
  templateEnd: new TokenType("template-string-end"),
  rawTemplatePart: new TokenType("raw-template-string-part"),
  rawTemplateEnd: new TokenType("raw-template-string-end"),

  // punctuation
  bracketL: new TokenType("["),
  bracketR: new TokenType("]"),
  braceL: new TokenType("{"),
  braceR: new TokenType("}"),
  parenL: new TokenType("("),
  parenR: new TokenType(")"),
  comma: new TokenType(","),
  colon: new TokenType(":"),
  dot: new TokenType("."),
  semicolon: new TokenType(";"),

  // infix operators; labels are OPA's operator names (errors say "unexpected plus token")
  plus: op("plus", PREC_ARITH),
  minus: op("minus", PREC_ARITH),
  mul: op("mul", PREC_FACTOR),
  div: op("div", PREC_FACTOR),
  rem: op("rem", PREC_FACTOR),
  // `&` and `|` are named "and"/"or" by OPA; since those words became keywords, errors call
  // these tokens "keyword" too (OPA's classification goes by the name).
  amp: new TokenType("and", { binop: PREC_INTERSECT, keyword: true }),
  pipe: new TokenType("or", { binop: PREC_UNION, keyword: true }),
  equal: op("equal", PREC_RELATION),
  neq: op("neq", PREC_RELATION),
  lt: op("lt", PREC_RELATION),
  gt: op("gt", PREC_RELATION),
  lte: op("lte", PREC_RELATION),
  gte: op("gte", PREC_RELATION),
  unify: new TokenType("eq"),
  assign: new TokenType("assign"),

  // future keywords (keywords in v1; in v0 only when imported)
  in: kw("in"),
  every: kw("every"),
  contains: kw("contains"),
  if: kw("if"),
  // logical keywords (only when imported: `import future.keywords.and` / `.or`)
  and: kw("and"),
  or: kw("or"),
} as const;

/** Keywords of every Rego version. */
export const baseKeywords: ReadonlyMap<string, TokenType> = new Map([
  ["package", tt.package],
  ["import", tt.import],
  ["as", tt.as],
  ["default", tt.default],
  ["else", tt.else],
  ["not", tt.not],
  ["some", tt.some],
  ["with", tt.with],
  ["null", tt.null],
  ["true", tt.true],
  ["false", tt.false],
]);

/** Keywords that v0 modules import (`future.keywords.x`) and v1 has built in. */
export const futureKeywordsV0: ReadonlyMap<string, TokenType> = new Map([
  ["in", tt.in],
  ["every", tt.every],
  ["contains", tt.contains],
  ["if", tt.if],
]);

/** Keywords that must be imported in every version. `not` is always a keyword; importing it
 * enables the `not (...)` and `not {...}` group forms. */
export const futureKeywordsLogical: ReadonlyMap<string, TokenType> = new Map([
  ["and", tt.and],
  ["or", tt.or],
  ["not", tt.not],
]);

/** All keywords `import future.keywords.<kw>` accepts. */
export const allFutureKeywords: readonly string[] = ["and", "contains", "every", "if", "in", "not", "or"];

/** Keywords of Rego v0 and v1 (OPA's KeywordsV0 / KeywordsV1). */
export const keywordsV0: ReadonlySet<string> = new Set(baseKeywords.keys());
export const keywordsV1: ReadonlySet<string> = new Set([...baseKeywords.keys(), ...futureKeywordsV0.keys()]);

