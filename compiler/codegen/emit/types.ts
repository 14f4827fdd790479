// TypeScript types for signatures: inferred kinds → a union of the value model's types, and the
// input/data shapes → the JSON types the policy's uses give them (object types with optional,
// quoted keys; see shapeType); a node a JSON Schema types is rendered from its description
// instead (describedType).
import { ANY, K, type Kinds } from "../analysis/kinds.js";
import { saysNothing, type Shape } from "../analysis/shapes.js";
import { _, join, lit, type Code } from "../code.js";
import type { TypeDescription } from "../schemaTypes.js";
import type { ModuleEmitter } from "./context.js";

/** The TS type of a value of the given kinds (never undefined: callers add `| undefined`). */
export function kindsType(mod: ModuleEmitter, kinds: Kinds): Code {
  if (kinds === 0) return _`never`;
  if ((kinds & ANY) === ANY) return mod.rt("Value");
  const parts: Code[] = [];
  if (kinds & K.null) parts.push(_`null`);
  if (kinds & K.boolean) parts.push(_`boolean`);
  if (kinds & K.number) parts.push(mod.rt("Num"));
  if (kinds & K.string) parts.push(_`string`);
  if (kinds & K.array) parts.push(_`${mod.rt("Value")}[]`);
  if (kinds & K.object) parts.push(mod.rt("ObjectValue"));
  if (kinds & K.set) parts.push(mod.rt("RegoSet"));
  return join(parts, _` | `);
}

/**
 * The TS type of an input/data shape: the union of what the policy's uses say the node may be
 * (scalars it is compared with, arrays and objects of the element type it scans or indexes, an
 * object of the constant keys it reads), `unknown` when they say nothing.
 *
 * An object the policy reads only at constant keys has no index signature. That is what a
 * TypeScript user expects of a parameter type, and what OPA's own type checker does with a closed
 * schema: an object literal with a misspelt key (`{ usr: ... }`) is an excess-property error,
 * while a variable whose type has more fields than the policy reads is still accepted
 * (structural typing), as OPA accepts any document. An object the policy also uses as a whole
 * value (compared, passed to a builtin, returned) or indexes dynamically keeps
 * `[key: string]: ...`: every key may matter there.
 */
export function shapeType(shape: Shape, collection: () => Code, depth = 0): Code {
  const parts = shapeParts(shape, collection, depth);
  return parts.length === 0 ? _`unknown` : join(parts, _` | `);
}

/** The members of a shape's union type (none: `unknown`). `collection` names the module's
 * `Collection<T>` (an array of T or an object of T values: what a scan or a dynamic key reads). */
function shapeParts(shape: Shape, collection: () => Code, depth: number): Code[] {
  if (shape.schema) return [describedType(shape.schema, depth)];
  if (shape.dynamic) return [];
  const k = shape.kinds === 0 && shape.key ? K.number | K.string : shape.kinds;
  const parts: Code[] = [];
  if (k & K.null) parts.push(_`null`);
  if (k & K.boolean) parts.push(_`boolean`);
  if (k & K.number) parts.push(_`number`);
  if (k & K.string) parts.push(_`string`);
  const elem = shape.elem ? shapeParts(shape.elem, collection, depth) : [];
  const elemType = elem.length > 0 ? join(elem, _` | `) : _`unknown`;
  const isObject = shape.keys.size > 0 || (k & K.object) !== 0;
  if (k & K.array && isObject && shape.keys.size === 0) parts.push(_`${collection()}<${elemType}>`);
  else if (k & K.array) parts.push(elem.length > 1 ? _`(${elemType})[]` : _`${elemType}[]`);
  if (isObject && !(k & K.array && shape.keys.size === 0)) {
    const members: Code[] = [];
    for (const [key, child] of [...shape.keys].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      members.push(_`${lit(key)}?: ${shapeType(child, collection, depth + 1)}`);
    }
    if (shape.keys.size === 0) members.push(_`[key: string]: ${shape.elem ? shapeType(shape.elem, collection, depth + 1) : _`unknown`}`);
    else if (shape.elem || shape.whole) members.push(_`[key: string]: unknown`);
    parts.push(objectBody(members, depth));
  }
  return parts;
}

/** The paths below a shape whose type the policy's uses leave `unknown` (`user.id`,
 * `items[_].price`), where a JSON Schema would say more. */
export function unknownPaths(shape: Shape, path = ""): string[] {
  if (shape.schema) return [];
  if (saysNothing(shape)) return path === "" ? [] : [path];
  const out: string[] = [];
  for (const [key, child] of [...shape.keys].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const step = /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? (path === "" ? key : `${path}.${key}`) : `${path}[${JSON.stringify(key)}]`;
    out.push(...unknownPaths(child, step));
  }
  if (shape.elem) out.push(...unknownPaths(shape.elem, `${path}[_]`));
  return out;
}

/**
 * The TS type a schema describes: a closed object has no index signature, an open one
 * `[key: string]: ...` over its other values (and, as TypeScript requires, its properties' types);
 * properties are optional unless the schema requires them. Keys are written only through lit().
 */
export function describedType(d: TypeDescription, depth = 0): Code {
  switch (d.kind) {
    case "unknown":
      return _`unknown`;
    case "null":
      return _`null`;
    case "boolean":
      return _`boolean`;
    case "number":
      return _`number`;
    case "string":
      return _`string`;
    case "union":
      return d.of.length === 0 ? _`never` : join(d.of.map((m) => describedType(m, depth)), _` | `);
    case "array":
      return arrayType(d, depth);
    case "object":
      return objectType(d, depth);
    default:
      throw new Error(`codegen: unknown type description ${JSON.stringify((d as { kind: unknown }).kind)}`);
  }
}

/** `T[]`, or a tuple `[A, B]` (with `...T[]` after when more may follow). */
function arrayType(d: TypeDescription & { kind: "array" }, depth: number): Code {
  if (d.items.length === 0) return _`${elementType(d.rest ?? { kind: "unknown" }, depth)}[]`;
  const members = d.items.map((m) => describedType(m, depth));
  if (d.rest) members.push(_`...${elementType(d.rest, depth)}[]`);
  return _`[${join(members)}]`;
}

/** An array's element type, parenthesised when it is a union (`(A | B)[]`). */
function elementType(d: TypeDescription, depth: number): Code {
  const t = describedType(d, depth);
  return d.kind === "union" && d.of.length > 1 ? _`(${t})` : t;
}

function objectType(d: TypeDescription & { kind: "object" }, depth: number): Code {
  // A closed object without properties: only `{}` fits, which TS's `{}` does not mean.
  if (d.properties.length === 0 && !d.rest) return _`Record<string, never>`;
  const members: Code[] = d.properties.map((p) => {
    if (typeof p.key !== "string") throw new Error("codegen: a property key of a type description is not a string");
    return _`${lit(p.key)}${p.optional ? _`?` : _``}: ${describedType(p.type, depth + 1)}`;
  });
  if (d.rest) members.push(_`[key: string]: ${indexType(d, depth + 1)}`);
  return objectBody(members, depth);
}

/** The longest object type written on one line, and its most members. */
const INLINE_WIDTH = 60;
const INLINE_MEMBERS = 3;

/** An object type from its members (`"k"?: T`): a nested one on one line when its members are
 * few, short and single-line themselves (`"user"?: { "id"?: string; "role"?: string }`), else
 * one member a line. */
function objectBody(members: Code[], depth: number): Code {
  const inline = join(members, _`; `);
  if (depth > 0 && members.length <= INLINE_MEMBERS && !inline.text.includes("\n") && inline.text.length <= INLINE_WIDTH) return _`{ ${inline} }`;
  const pad = indent(depth + 1);
  return _`{\n${join(members.map((m) => _`${pad}${m};`), _`\n`)}\n${indent(depth)}}`;
}

/** An index signature's type: TypeScript wants every property's type to fit it too. */
function indexType(d: TypeDescription & { kind: "object" }, depth: number): Code {
  const types = [d.rest!, ...d.properties.map((p) => p.type)].flatMap(unionMembers);
  if (types.some((t) => t.kind === "unknown")) return _`unknown`;
  const parts = types.map((t) => describedType(t, depth));
  if (d.properties.some((p) => p.optional)) parts.push(_`undefined`);
  const unique = [...new Map(parts.map((c) => [c.text, c])).values()];
  return join(unique, _` | `);
}

/** A union's members (nested unions flattened), or the one type. */
function unionMembers(d: TypeDescription): TypeDescription[] {
  return d.kind === "union" ? d.of.flatMap(unionMembers) : [d];
}

/** `n` levels of two-space indentation. */
function indent(n: number): Code {
  return join(Array.from({ length: n }, () => _`  `), _``);
}
