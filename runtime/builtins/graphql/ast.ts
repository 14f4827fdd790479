// The GraphQL AST OPA exposes: the node types of gqlparser (OPA's GraphQL library), kept with
// their source positions, and their conversion to and from Rego values in the JSON shape OPA
// returns ({"Operations": [{"Name": ..., "SelectionSet": [...]}]}, ...). As OPA does, the Rego
// form drops positions, nulls and empty lists/objects, but keeps empty strings and false.
// Reading a Rego object back is lenient like Go's JSON decoding: unknown keys are ignored and
// missing ones take zero values.
import { RegoObject, isObject, objectEntries } from "../../value/object.js";
import { newPlainObject, setOwn, type PlainObject, type Value } from "../../value/value.js";

export interface Pos {
  line: number;
  column: number;
  /** UTF-16 offset into the source. */
  start: number;
}

// gqlparser's value kinds, in its order.
export const VARIABLE = 0, INT = 1, FLOAT = 2, STRING = 3, BLOCK = 4, BOOLEAN = 5, NULL = 6, ENUM = 7, LIST = 8, OBJECT = 9;

export interface GqlValue { kind: number; raw: string; children: GqlChild[]; pos?: Pos }
export interface GqlChild { name: string; value: GqlValue | undefined; pos?: Pos }
export interface GqlType { namedType: string; elem: GqlType | undefined; nonNull: boolean; pos?: Pos }
export interface GqlArgument { name: string; value: GqlValue | undefined; pos?: Pos }
export interface GqlDirective { name: string; arguments: GqlArgument[]; location: string; pos?: Pos }
export interface GqlVariableDefinition {
  variable: string;
  type: GqlType | undefined;
  defaultValue: GqlValue | undefined;
  directives: GqlDirective[];
  pos?: Pos;
}
export interface GqlField {
  kind: "Field";
  alias: string;
  name: string;
  arguments: GqlArgument[];
  directives: GqlDirective[];
  selectionSet: GqlSelection[];
  pos?: Pos;
}
export interface GqlFragmentSpread { kind: "FragmentSpread"; name: string; directives: GqlDirective[]; pos?: Pos }
export interface GqlInlineFragment {
  kind: "InlineFragment";
  typeCondition: string;
  directives: GqlDirective[];
  selectionSet: GqlSelection[];
  pos?: Pos;
}
export type GqlSelection = GqlField | GqlFragmentSpread | GqlInlineFragment;
export interface GqlOperation {
  operation: string;
  name: string;
  variableDefinitions: GqlVariableDefinition[];
  directives: GqlDirective[];
  selectionSet: GqlSelection[];
  pos?: Pos;
}
export interface GqlFragmentDefinition {
  name: string;
  variableDefinition: GqlVariableDefinition[];
  typeCondition: string;
  directives: GqlDirective[];
  selectionSet: GqlSelection[];
  pos?: Pos;
}
export interface GqlQueryDocument { operations: GqlOperation[]; fragments: GqlFragmentDefinition[] }

export interface GqlArgumentDefinition {
  description: string;
  name: string;
  defaultValue: GqlValue | undefined;
  type: GqlType | undefined;
  directives: GqlDirective[];
  pos?: Pos;
}
export interface GqlFieldDefinition extends GqlArgumentDefinition { arguments: GqlArgumentDefinition[] }
export interface GqlEnumValueDefinition { description: string; name: string; directives: GqlDirective[]; pos?: Pos }
export interface GqlDefinition {
  kind: string;
  description: string;
  name: string;
  directives: GqlDirective[];
  interfaces: string[];
  fields: GqlFieldDefinition[];
  types: string[];
  enumValues: GqlEnumValueDefinition[];
  builtIn: boolean;
  pos?: Pos;
}
export interface GqlDirectiveDefinition {
  description: string;
  name: string;
  arguments: GqlArgumentDefinition[];
  locations: string[];
  isRepeatable: boolean;
  pos?: Pos;
}
export interface GqlOperationType { operation: string; type: string; pos?: Pos }
export interface GqlSchemaDefinition { description: string; directives: GqlDirective[]; operationTypes: GqlOperationType[]; pos?: Pos }
export interface GqlSchemaDocument {
  schema: GqlSchemaDefinition[];
  schemaExtension: GqlSchemaDefinition[];
  directives: GqlDirectiveDefinition[];
  definitions: GqlDefinition[];
  extensions: GqlDefinition[];
}

// ---- to Rego values (OPA's pruned JSON shape) ----

type Entry = [string, Value | undefined];

/** An object of the non-empty entries (OPA prunes nulls, empty arrays and empty objects). */
function obj(entries: Entry[]): PlainObject {
  const o = newPlainObject();
  for (const [k, v] of entries) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v) && v.length === 0) continue;
    if (isObject(v) && !(v instanceof RegoObject) && Object.keys(v).length === 0) continue;
    setOwn(o, k, v);
  }
  return o;
}

const list = <T>(xs: readonly T[], f: (x: T) => Value): Value[] =>
  xs.map(f).filter((v) => !(isObject(v) && Object.keys(v as PlainObject).length === 0));

const valueOf = (v: GqlValue | undefined): PlainObject | undefined =>
  v &&
  obj([
    ["Raw", v.raw],
    ["Children", list(v.children, (c) => obj([["Name", c.name], ["Value", valueOf(c.value)]]))],
    ["Kind", v.kind],
    ["ExpectedTypeHasDefault", false],
  ]);

const typeOf = (t: GqlType | undefined): PlainObject | undefined =>
  t && obj([["NamedType", t.namedType], ["Elem", typeOf(t.elem)], ["NonNull", t.nonNull]]);

const argumentsOf = (args: GqlArgument[]) => list(args, (a) => obj([["Name", a.name], ["Value", valueOf(a.value)]]));

const directivesOf = (ds: GqlDirective[]) =>
  list(ds, (d) => obj([["Name", d.name], ["Arguments", argumentsOf(d.arguments)], ["Location", d.location]]));

const variablesOf = (vs: GqlVariableDefinition[]) =>
  list(vs, (v) =>
    obj([
      ["Variable", v.variable],
      ["Type", typeOf(v.type)],
      ["DefaultValue", valueOf(v.defaultValue)],
      ["Directives", directivesOf(v.directives)],
      ["Used", false],
    ]),
  );

function selectionsOf(set: GqlSelection[]): Value[] {
  return list(set, (s) => {
    switch (s.kind) {
      case "Field":
        return obj([
          ["Alias", s.alias],
          ["Name", s.name],
          ["Arguments", argumentsOf(s.arguments)],
          ["Directives", directivesOf(s.directives)],
          ["SelectionSet", selectionsOf(s.selectionSet)],
        ]);
      case "FragmentSpread":
        return obj([["Name", s.name], ["Directives", directivesOf(s.directives)]]);
      default:
        return obj([
          ["TypeCondition", s.typeCondition],
          ["Directives", directivesOf(s.directives)],
          ["SelectionSet", selectionsOf(s.selectionSet)],
        ]);
    }
  });
}

export function queryToValue(doc: GqlQueryDocument): PlainObject {
  return obj([
    [
      "Operations",
      list(doc.operations, (o) =>
        obj([
          ["Operation", o.operation],
          ["Name", o.name],
          ["VariableDefinitions", variablesOf(o.variableDefinitions)],
          ["Directives", directivesOf(o.directives)],
          ["SelectionSet", selectionsOf(o.selectionSet)],
        ]),
      ),
    ],
    [
      "Fragments",
      list(doc.fragments, (f) =>
        obj([
          ["Name", f.name],
          ["VariableDefinition", variablesOf(f.variableDefinition)],
          ["TypeCondition", f.typeCondition],
          ["Directives", directivesOf(f.directives)],
          ["SelectionSet", selectionsOf(f.selectionSet)],
        ]),
      ),
    ],
  ]);
}

const argDefsOf = (args: GqlArgumentDefinition[]) =>
  list(args, (a) =>
    obj([
      ["Description", a.description],
      ["Name", a.name],
      ["DefaultValue", valueOf(a.defaultValue)],
      ["Type", typeOf(a.type)],
      ["Directives", directivesOf(a.directives)],
    ]),
  );

const definitionsOf = (defs: GqlDefinition[]) =>
  list(defs, (d) =>
    obj([
      ["Kind", d.kind],
      ["Description", d.description],
      ["Name", d.name],
      ["Directives", directivesOf(d.directives)],
      ["Interfaces", d.interfaces],
      [
        "Fields",
        list(d.fields, (f) =>
          obj([
            ["Description", f.description],
            ["Name", f.name],
            ["Arguments", argDefsOf(f.arguments)],
            ["DefaultValue", valueOf(f.defaultValue)],
            ["Type", typeOf(f.type)],
            ["Directives", directivesOf(f.directives)],
          ]),
        ),
      ],
      ["Types", d.types],
      ["EnumValues", list(d.enumValues, (e) => obj([["Description", e.description], ["Name", e.name], ["Directives", directivesOf(e.directives)]]))],
      ["BuiltIn", d.builtIn],
    ]),
  );

const schemaDefsOf = (defs: GqlSchemaDefinition[]) =>
  list(defs, (s) =>
    obj([
      ["Description", s.description],
      ["Directives", directivesOf(s.directives)],
      ["OperationTypes", list(s.operationTypes, (o) => obj([["Operation", o.operation], ["Type", o.type]]))],
    ]),
  );

export function schemaToValue(doc: GqlSchemaDocument): PlainObject {
  return obj([
    ["Schema", schemaDefsOf(doc.schema)],
    ["SchemaExtension", schemaDefsOf(doc.schemaExtension)],
    [
      "Directives",
      list(doc.directives, (d) =>
        obj([
          ["Description", d.description],
          ["Name", d.name],
          ["Arguments", argDefsOf(d.arguments)],
          ["Locations", d.locations],
          ["IsRepeatable", d.isRepeatable],
        ]),
      ),
    ],
    ["Definitions", definitionsOf(doc.definitions)],
    ["Extensions", definitionsOf(doc.extensions)],
  ]);
}

// ---- from Rego values (AST objects given to graphql.is_valid and friends) ----

export class AstDecodeError extends Error {}

/** A field of an AST object; like Go's decoder, an exact key first, then any case. */
function field(o: Value | undefined, key: string): Value | undefined {
  if (!isObject(o)) return undefined;
  const entries = objectEntries(o);
  for (const [k, v] of entries) if (k === key) return v;
  const lower = key.toLowerCase();
  for (const [k, v] of entries) if (typeof k === "string" && k.toLowerCase() === lower) return v;
  return undefined;
}

function str(o: Value | undefined, key: string): string {
  const v = field(o, key);
  if (v === undefined || v === null) return "";
  if (typeof v !== "string") throw new AstDecodeError(`cannot unmarshal ${key}: want a string`);
  return v;
}

function bool(o: Value | undefined, key: string): boolean {
  const v = field(o, key);
  if (v === undefined || v === null) return false;
  if (typeof v !== "boolean") throw new AstDecodeError(`cannot unmarshal ${key}: want a boolean`);
  return v;
}

function arr<T>(o: Value | undefined, key: string, f: (v: Value) => T): T[] {
  const v = field(o, key);
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new AstDecodeError(`cannot unmarshal ${key}: want an array`);
  return v.map(f);
}

const strings = (o: Value | undefined, key: string) =>
  arr(o, key, (v) => {
    if (typeof v !== "string") throw new AstDecodeError(`cannot unmarshal ${key}: want strings`);
    return v;
  });

function opt<T>(o: Value | undefined, key: string, f: (v: Value) => T): T | undefined {
  const v = field(o, key);
  return v === undefined || v === null ? undefined : f(v);
}

function valueFrom(v: Value): GqlValue {
  const kind = field(v, "Kind") ?? 0;
  if (typeof kind !== "number" || !Number.isInteger(kind)) throw new AstDecodeError("cannot unmarshal Kind: want an integer");
  return { kind, raw: str(v, "Raw"), children: arr(v, "Children", (c) => ({ name: str(c, "Name"), value: opt(c, "Value", valueFrom) })) };
}

function typeFrom(v: Value): GqlType {
  return { namedType: str(v, "NamedType"), elem: opt(v, "Elem", typeFrom), nonNull: bool(v, "NonNull") };
}

const argumentsFrom = (o: Value) => arr(o, "Arguments", (a) => ({ name: str(a, "Name"), value: opt(a, "Value", valueFrom) }));
const directivesFrom = (o: Value) =>
  arr(o, "Directives", (d) => ({ name: str(d, "Name"), arguments: argumentsFrom(d), location: str(d, "Location") }));
const variablesFrom = (o: Value, key: string) =>
  arr(o, key, (v) => ({
    variable: str(v, "Variable"),
    type: opt(v, "Type", typeFrom),
    defaultValue: opt(v, "DefaultValue", valueFrom),
    directives: directivesFrom(v),
  }));

/** Which selection an object is: gqlparser's selections carry no kind, so it is told by its keys. */
function selectionFrom(s: Value): GqlSelection {
  const hasKey = (k: string) => field(s, k) !== undefined;
  const selectionSet = () => arr(s, "SelectionSet", selectionFrom);
  if (hasKey("Alias") || (hasKey("Name") && (hasKey("SelectionSet") || hasKey("Arguments")))) {
    const name = str(s, "Name");
    return { kind: "Field", alias: str(s, "Alias") || name, name, arguments: argumentsFrom(s), directives: directivesFrom(s), selectionSet: selectionSet() };
  }
  if (hasKey("Name") && !hasKey("TypeCondition")) return { kind: "FragmentSpread", name: str(s, "Name"), directives: directivesFrom(s) };
  return { kind: "InlineFragment", typeCondition: str(s, "TypeCondition"), directives: directivesFrom(s), selectionSet: selectionSet() };
}

export function queryFromValue(v: Value): GqlQueryDocument {
  return {
    operations: arr(v, "Operations", (o) => ({
      operation: str(o, "Operation"),
      name: str(o, "Name"),
      variableDefinitions: variablesFrom(o, "VariableDefinitions"),
      directives: directivesFrom(o),
      selectionSet: arr(o, "SelectionSet", selectionFrom),
    })),
    fragments: arr(v, "Fragments", (f) => ({
      name: str(f, "Name"),
      variableDefinition: variablesFrom(f, "VariableDefinition"),
      typeCondition: str(f, "TypeCondition"),
      directives: directivesFrom(f),
      selectionSet: arr(f, "SelectionSet", selectionFrom),
    })),
  };
}

const argDefFrom = (a: Value): GqlArgumentDefinition => ({
  description: str(a, "Description"),
  name: str(a, "Name"),
  defaultValue: opt(a, "DefaultValue", valueFrom),
  type: opt(a, "Type", typeFrom),
  directives: directivesFrom(a),
});
const argDefsFrom = (o: Value): GqlArgumentDefinition[] => arr(o, "Arguments", argDefFrom);

const definitionsFrom = (o: Value, key: string): GqlDefinition[] =>
  arr(o, key, (d) => ({
    kind: str(d, "Kind"),
    description: str(d, "Description"),
    name: str(d, "Name"),
    directives: directivesFrom(d),
    interfaces: strings(d, "Interfaces"),
    fields: arr(d, "Fields", (f) => ({ ...argDefFrom(f), arguments: argDefsFrom(f) })),
    types: strings(d, "Types"),
    enumValues: arr(d, "EnumValues", (e) => ({ description: str(e, "Description"), name: str(e, "Name"), directives: directivesFrom(e) })),
    builtIn: bool(d, "BuiltIn"),
  }));

const schemaDefsFrom = (o: Value, key: string): GqlSchemaDefinition[] =>
  arr(o, key, (s) => ({
    description: str(s, "Description"),
    directives: directivesFrom(s),
    operationTypes: arr(s, "OperationTypes", (t) => ({ operation: str(t, "Operation"), type: str(t, "Type") })),
  }));

export function schemaFromValue(v: Value): GqlSchemaDocument {
  return {
    schema: schemaDefsFrom(v, "Schema"),
    schemaExtension: schemaDefsFrom(v, "SchemaExtension"),
    directives: arr(v, "Directives", (d) => ({
      description: str(d, "Description"),
      name: str(d, "Name"),
      arguments: argDefsFrom(d),
      locations: strings(d, "Locations"),
      isRepeatable: bool(d, "IsRepeatable"),
    })),
    definitions: definitionsFrom(v, "Definitions"),
    extensions: definitionsFrom(v, "Extensions"),
  };
}
