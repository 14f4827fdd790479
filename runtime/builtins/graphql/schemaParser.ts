// GraphQL schema documents (SDL) parsed as gqlparser parses them, on the shared parser core in
// parser.ts: definitions, extensions (which must add something: `extend type Hello` alone
// is "Unexpected <EOF>"), schema definitions and directive definitions.
import { TokenKind } from "graphql";
import type {
  GqlArgumentDefinition, GqlDefinition, GqlDirectiveDefinition, GqlEnumValueDefinition, GqlFieldDefinition,
  GqlSchemaDefinition, GqlSchemaDocument,
} from "./ast.js";
import { DIRECTIVE_LOCATIONS, GqlParser } from "./parser.js";

const { NAME, EOF, BRACE_L, BRACE_R, PAREN_L, PAREN_R, COLON, AT, EQUALS, PIPE, AMP, STRING, BLOCK_STRING } = TokenKind;

const TYPE_KEYWORDS: Record<string, string> = {
  scalar: "SCALAR",
  type: "OBJECT",
  interface: "INTERFACE",
  union: "UNION",
  enum: "ENUM",
  input: "INPUT_OBJECT",
};

class SchemaParser extends GqlParser {
  document(builtIn: boolean): GqlSchemaDocument {
    const doc: GqlSchemaDocument = { schema: [], schemaExtension: [], directives: [], definitions: [], extensions: [] };
    while (this.peek().kind !== EOF) {
      const description = this.description();
      const t = this.peek();
      if (t.kind !== NAME) this.unexpected();
      if (Object.hasOwn(TYPE_KEYWORDS, t.value)) doc.definitions.push(this.typeDefinition(description, builtIn));
      else if (t.value === "schema") doc.schema.push(this.schemaDefinition(description));
      else if (t.value === "directive") doc.directives.push(this.directiveDefinition(description));
      else if (t.value === "extend") {
        if (description !== "") this.unexpected(this.previous());
        this.extension(doc, builtIn);
      } else this.unexpected();
    }
    return doc;
  }

  private description(): string {
    const k = this.peek().kind;
    return k === STRING || k === BLOCK_STRING ? this.next().value : "";
  }

  private newDefinition(kind: string, description: string, builtIn: boolean): GqlDefinition {
    const pos = this.peek().pos;
    return { kind, description, name: this.name(), directives: [], interfaces: [], fields: [], types: [], enumValues: [], builtIn, pos };
  }

  /** A type definition or, with `extension`, a type extension (which has no description). */
  private typeBody(def: GqlDefinition, keyword: string, extension: boolean): GqlDefinition {
    switch (keyword) {
      case "scalar":
        def.directives = this.directives(true);
        if (extension && def.directives.length === 0) this.unexpected();
        break;
      case "type":
      case "interface":
        if (keyword === "type" || !extension) def.interfaces = this.implementsInterfaces();
        def.directives = this.directives(true);
        def.fields = this.some(BRACE_L, BRACE_R, () => this.fieldDefinition());
        if (extension && def.interfaces.length === 0 && def.directives.length === 0 && def.fields.length === 0) this.unexpected();
        break;
      case "union":
        def.directives = this.directives(true);
        def.types = this.unionMembers();
        if (extension && def.directives.length === 0 && def.types.length === 0) this.unexpected();
        break;
      case "enum":
        def.directives = this.directives(true);
        def.enumValues = this.some(BRACE_L, BRACE_R, () => this.enumValueDefinition());
        if (extension && def.directives.length === 0 && def.enumValues.length === 0) this.unexpected();
        break;
      default: // input
        def.directives = this.directives(!extension);
        def.fields = this.some(BRACE_L, BRACE_R, () => this.inputValueDefinition());
        if (extension && def.directives.length === 0 && def.fields.length === 0) this.unexpected();
    }
    return def;
  }

  private typeDefinition(description: string, builtIn: boolean): GqlDefinition {
    const keyword = this.next().value;
    return this.typeBody(this.newDefinition(TYPE_KEYWORDS[keyword]!, description, builtIn), keyword, false);
  }

  private extension(doc: GqlSchemaDocument, builtIn: boolean): void {
    this.expectKeyword("extend");
    const keyword = this.peek().value;
    if (keyword === "schema") {
      doc.schemaExtension.push(this.schemaExtension());
      return;
    }
    if (!Object.hasOwn(TYPE_KEYWORDS, keyword)) this.unexpected();
    this.next();
    doc.extensions.push(this.typeBody(this.newDefinition(TYPE_KEYWORDS[keyword]!, "", builtIn), keyword, true));
  }

  private implementsInterfaces(): string[] {
    const types: string[] = [];
    if (this.peek().value !== "implements") return types;
    this.next();
    this.skip(AMP);
    types.push(this.name());
    while (this.skip(AMP)) types.push(this.name());
    return types;
  }

  private unionMembers(): string[] {
    const types: string[] = [];
    if (!this.skip(EQUALS)) return types;
    this.skip(PIPE);
    types.push(this.name());
    while (this.skip(PIPE)) types.push(this.name());
    return types;
  }

  private fieldDefinition(): GqlFieldDefinition {
    const pos = this.peek().pos;
    const description = this.description();
    const name = this.name();
    const args = this.argumentDefinitions();
    this.expect(COLON);
    const type = this.typeReference();
    return { description, name, arguments: args, defaultValue: undefined, type, directives: this.directives(true), pos };
  }

  private argumentDefinitions(): GqlArgumentDefinition[] {
    return this.some(PAREN_L, PAREN_R, () => this.inputValueDefinition());
  }

  private inputValueDefinition(): GqlFieldDefinition {
    const pos = this.peek().pos;
    const description = this.description();
    const name = this.name();
    this.expect(COLON);
    const type = this.typeReference();
    const defaultValue = this.skip(EQUALS) ? this.value(true) : undefined;
    return { description, name, arguments: [], defaultValue, type, directives: this.directives(true), pos };
  }

  private enumValueDefinition(): GqlEnumValueDefinition {
    const pos = this.peek().pos;
    const description = this.description();
    return { description, name: this.name(), directives: this.directives(true), pos };
  }

  private operationTypes(): GqlSchemaDefinition["operationTypes"] {
    return this.some(BRACE_L, BRACE_R, () => {
      const pos = this.peek().pos;
      const operation = this.operationType();
      this.expect(COLON);
      return { operation, type: this.name(), pos };
    });
  }

  private schemaDefinition(description: string): GqlSchemaDefinition {
    this.expectKeyword("schema");
    const pos = this.peek().pos;
    const directives = this.directives(true);
    return { description, directives, operationTypes: this.operationTypes(), pos };
  }

  private schemaExtension(): GqlSchemaDefinition {
    this.expectKeyword("schema");
    const pos = this.peek().pos;
    const directives = this.directives(true);
    const operationTypes = this.operationTypes();
    if (directives.length === 0 && operationTypes.length === 0) this.unexpected();
    return { description: "", directives, operationTypes, pos };
  }

  private directiveDefinition(description: string): GqlDirectiveDefinition {
    this.expectKeyword("directive");
    this.expect(AT);
    const pos = this.peek().pos;
    const name = this.name();
    const args = this.argumentDefinitions();
    let isRepeatable = false;
    if (this.peek().kind === NAME && this.peek().value === "repeatable") {
      isRepeatable = true;
      this.next();
    }
    this.expectKeyword("on");
    this.skip(PIPE);
    const locations = [this.directiveLocation()];
    while (this.skip(PIPE)) locations.push(this.directiveLocation());
    return { description, name, arguments: args, locations, isRepeatable, pos };
  }

  private directiveLocation(): string {
    const t = this.expect(NAME);
    if (!DIRECTIVE_LOCATIONS.has(t.value)) this.unexpected(t);
    return t.value;
  }
}

/** Parses SDL; `builtIn` marks the definitions as the prelude's. */
export function parseSchema(body: string, builtIn = false): GqlSchemaDocument {
  return new SchemaParser(body).document(builtIn);
}
