// Query validation against a loaded schema (schema.ts) with graphql-js's (16) validation
// rules, the rules gqlparser also has (the introspection-depth rule is left out; the operation-type
// check, which graphql-js 16 leaves to execution, is added). The gqlparser-shaped documents become graphql-js AST nodes, with locations where the
// document came from text, and the messages that differ between the two libraries are given
// gqlparser's wording (`Field "f" argument "a" of type "T" is required, but it was not provided.`).
import {
  ExecutableDefinitionsRule, GraphQLError, Kind, Location, MaxIntrospectionDepthRule, OperationTypeNode, Source, Token,
  TokenKind, type ValidationContext, type ValidationRule, buildASTSchema, specifiedRules, validate,
  type ArgumentNode, type ConstValueNode, type DefinitionNode, type DirectiveNode, type DocumentNode,
  type FieldDefinitionNode, type InputValueDefinitionNode, type ListTypeNode, type NameNode, type NamedTypeNode,
  type OperationTypeDefinitionNode, type SelectionNode, type TypeNode,
  type ValueNode, type VariableDefinitionNode,
} from "graphql";
import {
  BLOCK, BOOLEAN, ENUM, FLOAT, INT, LIST, NULL, OBJECT, STRING, VARIABLE,
  type GqlArgument, type GqlArgumentDefinition, type GqlDefinition, type GqlDirective, type GqlQueryDocument,
  type GqlSelection, type GqlType, type GqlValue, type GqlVariableDefinition, type Pos,
} from "./ast.js";
import type { GqlSchema } from "./schema.js";

export interface GqlValidationError {
  message: string;
  line?: number;
  column?: number;
}

class Converter {
  constructor(private readonly source: Source | undefined) {}

  loc(pos: Pos | undefined): Location | undefined {
    if (!pos || !this.source) return undefined;
    const tok = new Token(TokenKind.NAME, pos.start, pos.start, pos.line, pos.column);
    return new Location(tok, tok, this.source);
  }

  name(value: string, pos?: Pos): NameNode {
    return { kind: Kind.NAME, value, loc: this.loc(pos) };
  }

  value(v: GqlValue | undefined): ValueNode {
    if (!v) return { kind: Kind.NULL };
    const loc = this.loc(v.pos);
    switch (v.kind) {
      case VARIABLE:
        return { kind: Kind.VARIABLE, name: this.name(v.raw), loc };
      case INT:
        return { kind: Kind.INT, value: v.raw, loc };
      case FLOAT:
        return { kind: Kind.FLOAT, value: v.raw, loc };
      case STRING:
      case BLOCK:
        return { kind: Kind.STRING, value: v.raw, block: v.kind === BLOCK, loc };
      case BOOLEAN:
        return { kind: Kind.BOOLEAN, value: v.raw === "true", loc };
      case NULL:
        return { kind: Kind.NULL, loc };
      case ENUM:
        return { kind: Kind.ENUM, value: v.raw, loc };
      case LIST:
        return { kind: Kind.LIST, values: v.children.map((c) => this.value(c.value)), loc };
      case OBJECT:
        return {
          kind: Kind.OBJECT,
          fields: v.children.map((c) => ({ kind: Kind.OBJECT_FIELD, name: this.name(c.name, c.pos), value: this.value(c.value), loc: this.loc(c.pos) })),
          loc,
        };
      default:
        throw new Error(`unknown value kind ${v.kind}`);
    }
  }

  type(t: GqlType | undefined): TypeNode {
    if (!t) throw new Error("missing type");
    const inner: ListTypeNode | NamedTypeNode = t.elem
      ? { kind: Kind.LIST_TYPE, type: this.type(t.elem), loc: this.loc(t.pos) }
      : { kind: Kind.NAMED_TYPE, name: this.name(t.namedType, t.pos), loc: this.loc(t.pos) };
    return t.nonNull ? { kind: Kind.NON_NULL_TYPE, type: inner, loc: this.loc(t.pos) } : inner;
  }

  arguments(args: GqlArgument[]): ArgumentNode[] {
    return args.map((a) => ({ kind: Kind.ARGUMENT, name: this.name(a.name, a.pos), value: this.value(a.value), loc: this.loc(a.pos) }));
  }

  directives(ds: GqlDirective[]): DirectiveNode[] {
    return ds.map((d) => ({ kind: Kind.DIRECTIVE, name: this.name(d.name, d.pos), arguments: this.arguments(d.arguments), loc: this.loc(d.pos) }));
  }

  variables(vs: GqlVariableDefinition[]): VariableDefinitionNode[] {
    return vs.map((v) => ({
      kind: Kind.VARIABLE_DEFINITION,
      variable: { kind: Kind.VARIABLE, name: this.name(v.variable, v.pos), loc: this.loc(v.pos) },
      type: this.type(v.type),
      defaultValue: v.defaultValue ? (this.value(v.defaultValue) as ConstValueNode) : undefined,
      directives: this.directives(v.directives) as VariableDefinitionNode["directives"],
      loc: this.loc(v.pos),
    }));
  }

  selections(set: GqlSelection[]): { kind: Kind.SELECTION_SET; selections: SelectionNode[] } {
    return {
      kind: Kind.SELECTION_SET,
      selections: set.map((s): SelectionNode => {
        const loc = this.loc(s.pos);
        if (s.kind === "Field") {
          const alias = s.alias !== "" && s.alias !== s.name ? this.name(s.alias, s.pos) : undefined;
          return {
            kind: Kind.FIELD,
            alias,
            name: this.name(s.name, s.pos),
            arguments: this.arguments(s.arguments),
            directives: this.directives(s.directives),
            selectionSet: s.selectionSet.length > 0 ? this.selections(s.selectionSet) : undefined,
            loc,
          };
        }
        if (s.kind === "FragmentSpread") return { kind: Kind.FRAGMENT_SPREAD, name: this.name(s.name, s.pos), directives: this.directives(s.directives), loc };
        return {
          kind: Kind.INLINE_FRAGMENT,
          typeCondition: s.typeCondition ? { kind: Kind.NAMED_TYPE, name: this.name(s.typeCondition) } : undefined,
          directives: this.directives(s.directives),
          selectionSet: this.selections(s.selectionSet),
          loc,
        };
      }),
    };
  }

  query(doc: GqlQueryDocument): DocumentNode {
    const operations = doc.operations.map((o): DefinitionNode => {
      const operation = o.operation === "" ? "query" : o.operation; // gqlparser reads "" as query
      if (operation !== "query" && operation !== "mutation" && operation !== "subscription") throw new Error(`unknown operation type "${operation}"`);
      return {
        kind: Kind.OPERATION_DEFINITION,
        operation: operation as OperationTypeNode,
        name: o.name ? this.name(o.name) : undefined,
        variableDefinitions: this.variables(o.variableDefinitions),
        directives: this.directives(o.directives),
        selectionSet: this.selections(o.selectionSet),
        loc: this.loc(o.pos),
      };
    });
    const fragments = doc.fragments.map(
      (f): DefinitionNode => ({
        kind: Kind.FRAGMENT_DEFINITION,
        name: this.name(f.name),
        variableDefinitions: this.variables(f.variableDefinition),
        typeCondition: { kind: Kind.NAMED_TYPE, name: this.name(f.typeCondition) },
        directives: this.directives(f.directives),
        selectionSet: this.selections(f.selectionSet),
        loc: this.loc(f.pos),
      }),
    );
    return { kind: Kind.DOCUMENT, definitions: [...operations, ...fragments] };
  }
}

// ---- the schema, as graphql-js SDL nodes ----

const plain = new Converter(undefined);
const named = (name: string) => ({ kind: Kind.NAMED_TYPE, name: plain.name(name) }) as const;

function inputValues(args: GqlArgumentDefinition[]): InputValueDefinitionNode[] {
  return args.map((a) => ({
    kind: Kind.INPUT_VALUE_DEFINITION,
    name: plain.name(a.name),
    type: plain.type(a.type),
    defaultValue: a.defaultValue ? (plain.value(a.defaultValue) as ConstValueNode) : undefined,
  }));
}

function typeDefinition(def: GqlDefinition): DefinitionNode {
  const name = plain.name(def.name);
  const fields = (): FieldDefinitionNode[] =>
    def.fields
      .filter((f) => !f.name.startsWith("__"))
      .map((f) => ({ kind: Kind.FIELD_DEFINITION, name: plain.name(f.name), arguments: inputValues(f.arguments), type: plain.type(f.type) }));
  switch (def.kind) {
    case "SCALAR":
      return { kind: Kind.SCALAR_TYPE_DEFINITION, name };
    case "OBJECT":
      return { kind: Kind.OBJECT_TYPE_DEFINITION, name, interfaces: def.interfaces.map(named), fields: fields() };
    case "INTERFACE":
      return { kind: Kind.INTERFACE_TYPE_DEFINITION, name, interfaces: def.interfaces.map(named), fields: fields() };
    case "UNION":
      return { kind: Kind.UNION_TYPE_DEFINITION, name, types: def.types.map(named) };
    case "ENUM":
      return { kind: Kind.ENUM_TYPE_DEFINITION, name, values: def.enumValues.map((v) => ({ kind: Kind.ENUM_VALUE_DEFINITION, name: plain.name(v.name) })) };
    default:
      return { kind: Kind.INPUT_OBJECT_TYPE_DEFINITION, name, fields: inputValues(def.fields) };
  }
}

function schemaDocument(schema: GqlSchema): DocumentNode {
  const definitions: DefinitionNode[] = [];
  for (const def of schema.types.values()) if (!def.builtIn && !def.name.startsWith("__")) definitions.push(typeDefinition(def));
  for (const dir of schema.directives.values()) {
    definitions.push({
      kind: Kind.DIRECTIVE_DEFINITION,
      name: plain.name(dir.name),
      arguments: inputValues(dir.arguments),
      repeatable: dir.isRepeatable,
      locations: dir.locations.map((l) => plain.name(l)),
    });
  }
  const roots = [
    [OperationTypeNode.QUERY, schema.query],
    [OperationTypeNode.MUTATION, schema.mutation],
    [OperationTypeNode.SUBSCRIPTION, schema.subscription],
  ] as const;
  const operationTypes = roots
    .filter(([, def]) => def !== undefined)
    .map(([operation, def]): OperationTypeDefinitionNode => ({ kind: Kind.OPERATION_TYPE_DEFINITION, operation, type: named(def!.name) }));
  if (operationTypes.length > 0) definitions.push({ kind: Kind.SCHEMA_DEFINITION, operationTypes });
  return { kind: Kind.DOCUMENT, definitions };
}

/** An operation of a type the schema has no root for (graphql-js 16 finds that only when executing). */
function knownOperationTypes(context: ValidationContext) {
  const schema = context.getSchema();
  return {
    OperationDefinition(node: { operation: OperationTypeNode }) {
      if (!schema.getRootType(node.operation)) {
        context.reportError(new GraphQLError(`The ${node.operation} operation is not supported by the schema.`, { nodes: node as never }));
      }
    },
  };
}

const excluded = new Set<ValidationRule>([MaxIntrospectionDepthRule]);
const rules = specifiedRules.filter((r) => !excluded.has(r)).flatMap((r) => (r === ExecutableDefinitionsRule ? [r, knownOperationTypes] : [r]));

/** graphql-js wording → gqlparser wording, where they differ. */
const REWORDINGS: Array<[RegExp, string]> = [
  [/^Argument "[^".]*\.([^"(]*)\(([^":]*):\)" of type "([^"]*)" is required, but it was not provided\.$/, 'Field "$1" argument "$2" of type "$3" is required, but it was not provided.'],
  [/^Argument "@([^"(]*)\(([^":]*):\)" of type "([^"]*)" is required, but it was not provided\.$/, 'Directive "@$1" argument "$2" of type "$3" is required, but it was not provided.'],
  [/^Unknown argument "([^"]*)" on field "([^".]*)\.([^"]*)"\./, 'Unknown argument "$1" on field "$3" of type "$2".'],
  [/^The (query|mutation|subscription) operation is not supported by the schema\.$/, 'Schema does not support operation type "$1"'],
];

function reword(message: string): string {
  for (const [re, replacement] of REWORDINGS) if (re.test(message)) return message.replace(re, replacement);
  return message;
}

/** The query's validation errors against the schema (empty when valid). */
export function validateQuery(schema: GqlSchema, doc: GqlQueryDocument, text: string | undefined): GqlValidationError[] {
  let errors;
  try {
    const built = buildASTSchema(schemaDocument(schema), { assumeValid: true, assumeValidSDL: true });
    const query = new Converter(text === undefined ? undefined : new Source(text)).query(doc);
    errors = validate(built, query, rules);
  } catch (e) {
    return [{ message: (e as Error).message }];
  }
  return errors.map((e) => ({ message: reword(e.message), line: e.locations?.[0]?.line, column: e.locations?.[0]?.column }));
}
