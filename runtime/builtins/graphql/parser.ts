// GraphQL query and schema documents parsed as OPA's GraphQL library (gqlparser) parses them:
// its grammar (e.g. `()` and `[]` may be empty, `{}` may not: "expected at least one definition,
// found }"), its node positions and its error texts ("Expected Name, found <EOF>",
// `Unexpected Name "x"`). graphql-js's lexer reads the tokens (strings, block strings,
// escapes, numbers); a lexing error becomes gqlparser's <Invalid> token.
import { GraphQLError, Lexer, Source, TokenKind } from "graphql";
import {
  BLOCK, BOOLEAN, ENUM, FLOAT, INT, LIST, NULL, OBJECT, STRING, VARIABLE,
  type GqlArgument, type GqlChild, type GqlDirective, type GqlFragmentDefinition, type GqlOperation,
  type GqlQueryDocument, type GqlSelection, type GqlType, type GqlValue, type GqlVariableDefinition, type Pos,
} from "./ast.js";
import { quote as goQuote } from "../go/strconv.js";

/** A syntax error at a 1-based line and column, with gqlparser's message. */
export class GqlSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(message);
  }
}

export interface Tok {
  kind: string;
  value: string;
  pos: Pos;
}

const INVALID = "<Invalid>";
const { NAME, EOF, BRACE_L, BRACE_R, PAREN_L, PAREN_R, BRACKET_L, BRACKET_R, COLON, DOLLAR, AT, BANG, EQUALS, SPREAD } = TokenKind;
export const DIRECTIVE_LOCATIONS: ReadonlySet<string> = new Set([
  "QUERY", "MUTATION", "SUBSCRIPTION", "FIELD", "FRAGMENT_DEFINITION", "FRAGMENT_SPREAD", "INLINE_FRAGMENT",
  "VARIABLE_DEFINITION", "SCHEMA", "SCALAR", "OBJECT", "FIELD_DEFINITION", "ARGUMENT_DEFINITION", "INTERFACE",
  "UNION", "ENUM", "ENUM_VALUE", "INPUT_OBJECT", "INPUT_FIELD_DEFINITION",
]);

const describe = (t: Tok) => (t.value !== "" ? `${t.kind} ${goQuote(t.value)}` : t.kind);

export class GqlParser {
  private readonly lexer: Lexer;
  private peeked: Tok | undefined;
  private prev: Tok | undefined;

  constructor(body: string) {
    this.lexer = new Lexer(new Source(body));
  }

  private read(): Tok {
    try {
      const t = this.lexer.advance();
      // gqlparser positions a string token after its opening quote(s).
      const skip = t.kind === TokenKind.STRING ? 1 : t.kind === TokenKind.BLOCK_STRING ? 3 : 0;
      const pos = { line: t.line, column: t.column + skip, start: t.start + skip };
      return { kind: t.kind, value: t.kind === EOF ? "" : (t.value ?? ""), pos };
    } catch (e) {
      const loc = e instanceof GraphQLError ? e.locations?.[0] : undefined;
      const start = e instanceof GraphQLError ? (e.positions?.[0] ?? 0) : 0;
      return { kind: INVALID, value: "", pos: { line: loc?.line ?? 1, column: loc?.column ?? 1, start } };
    }
  }

  peek(): Tok {
    return (this.peeked ??= this.read());
  }

  next(): Tok {
    const t = this.peek();
    this.peeked = undefined;
    this.prev = t;
    return t;
  }

  fail(tok: Tok, message: string): never {
    throw new GqlSyntaxError(message, tok.pos.line, tok.pos.column);
  }

  unexpected(tok: Tok = this.peek()): never {
    return this.fail(tok, `Unexpected ${describe(tok)}`);
  }

  expect(kind: string): Tok {
    const t = this.peek();
    if (t.kind === kind) return this.next();
    return this.fail(t, `Expected ${kind}, found ${t.kind}`);
  }

  expectKeyword(value: string): Tok {
    const t = this.peek();
    if (t.kind === NAME && t.value === value) return this.next();
    return this.fail(t, `Expected ${goQuote(value)}, found ${describe(t)}`);
  }

  skip(kind: string): boolean {
    if (this.peek().kind !== kind) return false;
    this.next();
    return true;
  }

  /** `start item* end`, when `start` is there (empty allowed). */
  many<T>(start: string, end: string, item: () => T): T[] {
    const out: T[] = [];
    if (!this.skip(start)) return out;
    while (this.peek().kind !== end) out.push(item());
    this.next();
    return out;
  }

  /** `start item+ end`, when `start` is there. */
  some<T>(start: string, end: string, item: () => T): T[] {
    const out: T[] = [];
    if (!this.skip(start)) return out;
    while (this.peek().kind !== end) out.push(item());
    if (out.length === 0) this.fail(this.peek(), `expected at least one definition, found ${this.peek().kind}`);
    this.next();
    return out;
  }

  name(): string {
    return this.expect(NAME).value;
  }

  /** The last token consumed. */
  previous(): Tok {
    return this.prev ?? this.peek();
  }

  // ---- shared by queries and schemas ----

  value(isConst: boolean): GqlValue {
    const t = this.peek();
    let kind: number;
    switch (t.kind) {
      case BRACKET_L:
        return { kind: LIST, raw: "", pos: t.pos, children: this.many(BRACKET_L, BRACKET_R, () => ({ name: "", value: this.value(isConst) })) };
      case BRACE_L:
        return { kind: OBJECT, raw: "", pos: t.pos, children: this.many(BRACE_L, BRACE_R, () => this.objectField(isConst)) };
      case DOLLAR:
        if (isConst) this.unexpected();
        return { kind: VARIABLE, raw: this.variable(), children: [], pos: t.pos };
      case TokenKind.INT:
        kind = INT;
        break;
      case TokenKind.FLOAT:
        kind = FLOAT;
        break;
      case TokenKind.STRING:
        kind = STRING;
        break;
      case TokenKind.BLOCK_STRING:
        kind = BLOCK;
        break;
      case NAME:
        kind = t.value === "true" || t.value === "false" ? BOOLEAN : t.value === "null" ? NULL : ENUM;
        break;
      default:
        return this.unexpected();
    }
    this.next();
    return { kind, raw: t.value, children: [], pos: t.pos };
  }

  private objectField(isConst: boolean): GqlChild {
    const pos = this.peek().pos;
    const name = this.name();
    this.expect(COLON);
    return { name, value: this.value(isConst), pos };
  }

  variable(): string {
    this.expect(DOLLAR);
    return this.name();
  }

  directives(isConst: boolean): GqlDirective[] {
    const out: GqlDirective[] = [];
    while (this.peek().kind === AT) {
      this.expect(AT);
      const pos = this.peek().pos;
      out.push({ name: this.name(), arguments: this.arguments(isConst), location: "", pos });
    }
    return out;
  }

  arguments(isConst: boolean): GqlArgument[] {
    return this.many(PAREN_L, PAREN_R, () => {
      const pos = this.peek().pos;
      const name = this.name();
      this.expect(COLON);
      return { name, value: this.value(isConst), pos };
    });
  }

  typeReference(): GqlType {
    const typ: GqlType = { namedType: "", elem: undefined, nonNull: false };
    if (this.skip(BRACKET_L)) {
      typ.pos = this.peek().pos;
      typ.elem = this.typeReference();
      this.expect(BRACKET_R);
    } else {
      typ.pos = this.peek().pos;
      typ.namedType = this.name();
    }
    if (this.skip(BANG)) {
      typ.pos = this.peek().pos; // gqlparser's quirk: the token after "!"
      typ.nonNull = true;
    }
    return typ;
  }

  operationType(): string {
    const t = this.next();
    if (t.value === "query" || t.value === "mutation" || t.value === "subscription") return t.value;
    return this.unexpected(t);
  }

  // ---- queries ----

  queryDocument(): GqlQueryDocument {
    const doc: GqlQueryDocument = { operations: [], fragments: [] };
    while (this.peek().kind !== EOF) {
      const t = this.peek();
      if (t.kind === NAME && (t.value === "query" || t.value === "mutation" || t.value === "subscription")) doc.operations.push(this.operation());
      else if (t.kind === NAME && t.value === "fragment") doc.fragments.push(this.fragmentDefinition());
      else if (t.kind === BRACE_L) doc.operations.push(this.operation());
      else this.unexpected();
    }
    return doc;
  }

  private operation(): GqlOperation {
    const pos = this.peek().pos;
    if (this.peek().kind === BRACE_L) {
      return { operation: "query", name: "", variableDefinitions: [], directives: [], selectionSet: this.requiredSelectionSet(), pos };
    }
    const operation = this.operationType();
    const name = this.peek().kind === NAME ? this.next().value : "";
    return { operation, name, variableDefinitions: this.variableDefinitions(), directives: this.directives(false), selectionSet: this.requiredSelectionSet(), pos };
  }

  private variableDefinitions(): GqlVariableDefinition[] {
    return this.many(PAREN_L, PAREN_R, () => {
      const pos = this.peek().pos;
      const variable = this.variable();
      this.expect(COLON);
      const type = this.typeReference();
      const defaultValue = this.skip(EQUALS) ? this.value(true) : undefined;
      return { variable, type, defaultValue, directives: this.directives(false), pos };
    });
  }

  private requiredSelectionSet(): GqlSelection[] {
    if (this.peek().kind !== BRACE_L) this.fail(this.peek(), `Expected ${BRACE_L}, found ${this.peek().kind}`);
    return this.some(BRACE_L, BRACE_R, () => this.selection());
  }

  private selection(): GqlSelection {
    if (this.peek().kind === SPREAD) return this.fragment();
    const pos = this.peek().pos;
    const alias = this.name();
    const name = this.skip(COLON) ? this.name() : alias;
    const args = this.arguments(false);
    const directives = this.directives(false);
    const selectionSet = this.peek().kind === BRACE_L ? this.some(BRACE_L, BRACE_R, () => this.selection()) : [];
    return { kind: "Field", alias, name, arguments: args, directives, selectionSet, pos };
  }

  private fragment(): GqlSelection {
    this.expect(SPREAD);
    const t = this.peek();
    if (t.kind === NAME && t.value !== "on") {
      return { kind: "FragmentSpread", pos: t.pos, name: this.fragmentName(), directives: this.directives(false) };
    }
    const pos = t.pos;
    let typeCondition = "";
    if (t.value === "on") {
      this.next();
      typeCondition = this.name();
    }
    return { kind: "InlineFragment", typeCondition, directives: this.directives(false), selectionSet: this.requiredSelectionSet(), pos };
  }

  private fragmentDefinition(): GqlFragmentDefinition {
    const pos = this.peek().pos;
    this.expectKeyword("fragment");
    const name = this.fragmentName();
    const variableDefinition = this.variableDefinitions();
    this.expectKeyword("on");
    const typeCondition = this.name();
    return { name, variableDefinition, typeCondition, directives: this.directives(false), selectionSet: this.requiredSelectionSet(), pos };
  }

  private fragmentName(): string {
    if (this.peek().value === "on") this.unexpected();
    return this.name();
  }
}

export function parseQuery(body: string): GqlQueryDocument {
  return new GqlParser(body).queryDocument();
}

