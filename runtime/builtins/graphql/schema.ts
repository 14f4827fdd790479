// A GraphQL schema document checked and assembled as OPA's library (gqlparser) does before it
// validates queries: the built-in prelude is merged in, extensions are folded into their types
// (an extension of an undefined type defines it), and the checks and messages of gqlparser's
// schema loader apply ("Undefined type "World".", "OBJECT Hello: must define one or more
// fields.", "Cannot extend type Foo because the base type is a SCALAR, not OBJECT.", ...).
import type {
  GqlArgumentDefinition, GqlDefinition, GqlDirective, GqlDirectiveDefinition, GqlSchemaDocument, GqlType, Pos,
} from "./ast.js";
import { parseSchema } from "./schemaParser.js";

/** A schema error, with the position gqlparser reports (when the document had positions). */
export class GqlSchemaError extends Error {
  constructor(
    message: string,
    readonly pos: Pos | undefined,
  ) {
    super(message);
  }
}

export interface GqlSchema {
  types: Map<string, GqlDefinition>;
  directives: Map<string, GqlDirectiveDefinition>;
  possibleTypes: Map<string, GqlDefinition[]>;
  query: GqlDefinition | undefined;
  mutation: GqlDefinition | undefined;
  subscription: GqlDefinition | undefined;
}

// The implicit definitions every schema has (scalars, directives, introspection types).
const PRELUDE_SDL = `
scalar Int
scalar Float
scalar String
scalar Boolean
scalar ID
directive @include(if: Boolean!) on FIELD | FRAGMENT_SPREAD | INLINE_FRAGMENT
directive @skip(if: Boolean!) on FIELD | FRAGMENT_SPREAD | INLINE_FRAGMENT
directive @deprecated(reason: String = "No longer supported") on FIELD_DEFINITION | ARGUMENT_DEFINITION | INPUT_FIELD_DEFINITION | ENUM_VALUE
directive @specifiedBy(url: String!) on SCALAR
directive @defer(if: Boolean = true, label: String) on FRAGMENT_SPREAD | INLINE_FRAGMENT
directive @oneOf on INPUT_OBJECT
type __Schema {
  description: String
  types: [__Type!]!
  queryType: __Type!
  mutationType: __Type
  subscriptionType: __Type
  directives: [__Directive!]!
}
type __Type {
  kind: __TypeKind!
  name: String
  description: String
  fields(includeDeprecated: Boolean = false): [__Field!]
  interfaces: [__Type!]
  possibleTypes: [__Type!]
  enumValues(includeDeprecated: Boolean = false): [__EnumValue!]
  inputFields: [__InputValue!]
  ofType: __Type
  specifiedByURL: String
}
type __Field {
  name: String!
  description: String
  args: [__InputValue!]!
  type: __Type!
  isDeprecated: Boolean!
  deprecationReason: String
}
type __InputValue {
  name: String!
  description: String
  type: __Type!
  defaultValue: String
}
type __EnumValue {
  name: String!
  description: String
  isDeprecated: Boolean!
  deprecationReason: String
}
enum __TypeKind { SCALAR OBJECT INTERFACE UNION ENUM INPUT_OBJECT LIST NON_NULL }
type __Directive {
  name: String!
  description: String
  locations: [__DirectiveLocation!]!
  args: [__InputValue!]!
  isRepeatable: Boolean!
}
enum __DirectiveLocation {
  QUERY MUTATION SUBSCRIPTION FIELD FRAGMENT_DEFINITION FRAGMENT_SPREAD INLINE_FRAGMENT VARIABLE_DEFINITION
  SCHEMA SCALAR OBJECT FIELD_DEFINITION ARGUMENT_DEFINITION INTERFACE UNION ENUM ENUM_VALUE INPUT_OBJECT
  INPUT_FIELD_DEFINITION
}
`;

let prelude: GqlSchemaDocument | undefined;

const BUILTIN_DIRECTIVES = new Set(["include", "skip", "deprecated", "specifiedBy"]);

const fail = (pos: Pos | undefined, message: string): never => {
  throw new GqlSchemaError(message, pos);
};
const quote = (s: string) => JSON.stringify(s);

export function typeName(t: GqlType | undefined): string {
  if (!t) return "";
  return t.elem ? typeName(t.elem) : t.namedType;
}

export function typeString(t: GqlType | undefined): string {
  if (!t) return "";
  const base = t.elem ? `[${typeString(t.elem)}]` : t.namedType;
  return t.nonNull ? `${base}!` : base;
}

/** Copies (shallowly) so that folding extensions never changes the caller's document. */
function copyDefinition(d: GqlDefinition): GqlDefinition {
  return { ...d, directives: [...d.directives], interfaces: [...d.interfaces], fields: [...d.fields], types: [...d.types], enumValues: [...d.enumValues] };
}

/** gqlparser's ValidateSchemaDocument over the prelude merged with `doc`. */
export function loadSchema(doc: GqlSchemaDocument): GqlSchema {
  prelude ??= parseSchema(PRELUDE_SDL, true);
  const merged: GqlSchemaDocument = {
    schema: [...prelude.schema, ...doc.schema],
    schemaExtension: [...prelude.schemaExtension, ...doc.schemaExtension],
    directives: [...prelude.directives, ...doc.directives],
    definitions: [...prelude.definitions, ...doc.definitions].map(copyDefinition),
    extensions: [...prelude.extensions, ...doc.extensions],
  };
  const schema: GqlSchema = { types: new Map(), directives: new Map(), possibleTypes: new Map(), query: undefined, mutation: undefined, subscription: undefined };
  for (const def of merged.definitions) {
    if (schema.types.has(def.name)) fail(def.pos, `Cannot redeclare type ${def.name}.`);
    schema.types.set(def.name, def);
  }
  const defs = [...merged.definitions];
  for (const ext of merged.extensions) {
    let def = schema.types.get(ext.name);
    if (!def) {
      def = { kind: ext.kind, description: "", name: ext.name, directives: [], interfaces: [], fields: [], types: [], enumValues: [], builtIn: false, pos: ext.pos };
      schema.types.set(ext.name, def);
      defs.push(def);
    }
    if (def.kind !== ext.kind) fail(ext.pos, `Cannot extend type ${ext.name} because the base type is a ${def.kind}, not ${ext.kind}.`);
    def.directives.push(...ext.directives);
    def.interfaces.push(...ext.interfaces);
    def.fields.push(...ext.fields);
    def.types.push(...ext.types);
    def.enumValues.push(...ext.enumValues);
  }
  const addPossible = (name: string, def: GqlDefinition | undefined) => {
    if (!def) return;
    const list = schema.possibleTypes.get(name) ?? [];
    list.push(def);
    schema.possibleTypes.set(name, list);
  };
  for (const def of defs) {
    if (def.kind === "UNION") for (const t of def.types) addPossible(def.name, schema.types.get(t));
    else if (def.kind === "OBJECT" || def.kind === "INPUT_OBJECT" || def.kind === "INTERFACE") {
      for (const i of def.interfaces) addPossible(i, def);
      if (def.kind !== "INTERFACE") addPossible(def.name, def);
    }
  }
  for (const dir of merged.directives) {
    if (schema.directives.has(dir.name)) {
      if (BUILTIN_DIRECTIVES.has(dir.name)) continue; // a schema may restate a built-in directive; the first stays
      fail(dir.pos, `Cannot redeclare directive ${dir.name}.`);
    }
    schema.directives.set(dir.name, dir);
  }
  if (merged.schema.length > 1) fail(merged.schema[1]!.pos, "Cannot have multiple schema entry points, consider schema extensions instead.");
  for (const s of [...merged.schema, ...merged.schemaExtension]) {
    for (const entry of s.operationTypes) {
      const def = schema.types.get(entry.type);
      if (!def) fail(entry.pos, `Schema root ${entry.operation} refers to a type ${entry.type} that does not exist.`);
      if (entry.operation === "query") schema.query = def;
      else if (entry.operation === "mutation") schema.mutation = def;
      else if (entry.operation === "subscription") schema.subscription = def;
    }
  }
  for (const name of [...schema.types.keys()].sort()) validateDefinition(schema, schema.types.get(name)!);
  for (const name of [...schema.directives.keys()].sort()) {
    const dir = schema.directives.get(name)!;
    validateName(dir.pos, dir.name);
    validateArgs(schema, dir.arguments, dir);
  }
  if (merged.schema.length === 0) {
    schema.query ??= schema.types.get("Query");
    schema.mutation ??= schema.types.get("Mutation");
    schema.subscription ??= schema.types.get("Subscription");
  }
  return schema;
}

function validateName(pos: Pos | undefined, name: string): void {
  if (name.startsWith("__")) fail(pos, `Name "${name}" must not begin with "__", which is reserved by GraphQL introspection.`);
}

function validateTypeRef(schema: GqlSchema, t: GqlType | undefined): void {
  if (!schema.types.has(typeName(t))) fail(t?.pos, `Undefined type ${typeName(t)}.`);
}

const isInputKind = (k: string) => k === "SCALAR" || k === "ENUM" || k === "INPUT_OBJECT";

function validateArgs(schema: GqlSchema, args: GqlArgumentDefinition[], current: GqlDirectiveDefinition | undefined): void {
  for (const arg of args) {
    validateName(arg.pos, arg.name);
    validateTypeRef(schema, arg.type);
    const def = schema.types.get(typeName(arg.type))!;
    if (!isInputKind(def.kind)) {
      fail(arg.pos, `cannot use ${typeString(arg.type)} as argument ${arg.name} because ${def.kind} is not a valid input type`);
    }
    validateDirectives(schema, arg.directives, "ARGUMENT_DEFINITION", current);
  }
}

function validateDirectives(schema: GqlSchema, dirs: GqlDirective[], location: string, current: GqlDirectiveDefinition | undefined): void {
  for (const dir of dirs) {
    validateName(dir.pos, dir.name);
    if (current && dir.name === current.name) fail(dir.pos, `Directive ${current.name} cannot refer to itself.`);
    const def = schema.directives.get(dir.name);
    if (!def) fail(dir.pos, `Undefined directive ${dir.name}.`);
    if (!def!.locations.includes(location)) fail(dir.pos, `Directive ${dir.name} is not applicable on ${location}.`);
  }
}

function validateDefinition(schema: GqlSchema, def: GqlDefinition): void {
  for (const field of def.fields) {
    validateName(field.pos, field.name);
    validateTypeRef(schema, field.type);
    validateArgs(schema, field.arguments, undefined);
    validateDirectives(schema, field.directives, def.kind === "INPUT_OBJECT" ? "INPUT_FIELD_DEFINITION" : "FIELD_DEFINITION", undefined);
  }
  for (const t of def.types) {
    const member = schema.types.get(t);
    if (!member) fail(def.pos, `Undefined type ${quote(t)}.`);
    if (member!.kind !== "OBJECT") fail(def.pos, `${def.kind} type ${quote(t)} must be OBJECT.`);
  }
  for (const i of def.interfaces) validateImplements(schema, def, i);
  const fieldKinds = (allowed: string[], message: (kind: string, field: string) => string) => {
    for (const field of def.fields) {
      const t = schema.types.get(typeName(field.type));
      if (t && !allowed.includes(t.kind)) fail(field.pos, message(t.kind, field.name));
    }
  };
  switch (def.kind) {
    case "OBJECT":
    case "INTERFACE":
      if (def.fields.length === 0) fail(def.pos, `${def.kind} ${def.name}: must define one or more fields.`);
      fieldKinds(["SCALAR", "OBJECT", "INTERFACE", "UNION", "ENUM"], () => `${def.kind} ${def.name}: field must be one of SCALAR, OBJECT, INTERFACE, UNION, ENUM.`);
      break;
    case "ENUM":
      if (def.enumValues.length === 0) fail(def.pos, `${def.kind} ${def.name}: must define one or more unique enum values.`);
      for (const v of def.enumValues) {
        if (v.name === "true" || v.name === "false" || v.name === "null") fail(def.pos, `${def.kind} ${def.name}: non-enum value ${v.name}.`);
      }
      break;
    case "INPUT_OBJECT":
      if (def.fields.length === 0) fail(def.pos, `${def.kind} ${def.name}: must define one or more input fields.`);
      fieldKinds(["SCALAR", "ENUM", "INPUT_OBJECT"], (kind, field) => `${kind} ${field}: field must be one of SCALAR, ENUM, INPUT_OBJECT.`);
      break;
  }
  def.fields.forEach((f1, i) => {
    for (const f2 of def.fields.slice(i + 1)) if (f1.name === f2.name) fail(f2.pos, `Field ${def.name}.${f2.name} can only be defined once.`);
  });
  if (!def.builtIn) validateName(def.pos, def.name);
  validateDirectives(schema, def.directives, def.kind, undefined);
}

function validateImplements(schema: GqlSchema, def: GqlDefinition, intfName: string): void {
  const intf = schema.types.get(intfName);
  if (!intf) return fail(def.pos, `Undefined type ${quote(intfName)}.`);
  if (intf.kind !== "INTERFACE") fail(def.pos, `${quote(intfName)} is a non interface type ${intf.kind}.`);
  const at = `For ${def.name} to implement ${intf.name}`;
  for (const required of intf.fields) {
    const found = def.fields.find((f) => f.name === required.name);
    if (!found) return fail(def.pos, `${at} it must have a field called ${required.name}.`);
    if (!isCovariant(schema, required.type, found.type)) fail(found.pos, `${at} the field ${required.name} must have type ${typeString(required.type)}.`);
    for (const reqArg of required.arguments) {
      const arg = found.arguments.find((a) => a.name === reqArg.name);
      if (!arg) return fail(found.pos, `${at} the field ${required.name} must have the same arguments but it is missing ${reqArg.name}.`);
      if (!isCompatible(reqArg.type, arg.type)) fail(arg.pos, `${at} the field ${required.name} must have the same arguments but ${reqArg.name} has the wrong type.`);
    }
    for (const arg of found.arguments) {
      if (!required.arguments.some((a) => a.name === arg.name) && arg.type?.nonNull && !arg.defaultValue) {
        fail(arg.pos, `${at} any additional arguments on ${found.name} must be optional or have a default value but ${arg.name} is required.`);
      }
    }
  }
  for (const transitive of intf.interfaces) {
    if (def.interfaces.includes(transitive)) continue;
    if (transitive === def.name) fail(def.pos, `Type ${def.name} cannot implement ${intfName} because it would create a circular reference.`);
    fail(def.pos, `Type ${def.name} must implement ${transitive} because it is implemented by ${intfName}.`);
  }
}

function isCovariant(schema: GqlSchema, required: GqlType | undefined, actual: GqlType | undefined): boolean {
  if (!required || !actual) return false;
  if (required.nonNull && !actual.nonNull) return false;
  if (required.namedType !== "") {
    if (required.namedType === actual.namedType) return true;
    return (schema.possibleTypes.get(required.namedType) ?? []).some((d) => d.name === actual.namedType);
  }
  if (required.elem && !actual.elem) return false;
  return isCovariant(schema, required.elem, actual.elem);
}

/** gqlparser's Type.IsCompatible (a required argument's type against the implementing one). */
function isCompatible(t: GqlType | undefined, other: GqlType | undefined): boolean {
  if (!t || !other) return t === other;
  if (t.namedType !== other.namedType) return false;
  if (t.elem && (!other.elem || !isCompatible(t.elem, other.elem))) return false;
  return other.nonNull ? t.nonNull : true;
}
