// TypeScript types for signatures: inferred kinds → a union of the value model's types, and the
// structural input/data shapes → object types with optional, quoted keys, `unknown` at the leaves
// and an index signature on every object (documents may carry more than the policy reads).
import { ANY, K, type Kinds } from "../analysis/kinds.js";
import type { Shape } from "../analysis/shapes.js";
import { _, join, lit, type Code } from "../code.js";
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

/** The TS type of an input/data shape. */
export function shapeType(shape: Shape, depth = 0): Code {
  if (shape.dynamic || shape.keys.size === 0) return _`unknown`;
  const pad = indent(depth + 1);
  const members: Code[] = [];
  for (const [k, child] of [...shape.keys].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    members.push(_`${pad}${lit(k)}?: ${shapeType(child, depth + 1)};`);
  }
  members.push(_`${pad}[key: string]: unknown;`);
  return _`{\n${join(members, _`\n`)}\n${indent(depth)}}`;
}

/** `n` levels of two-space indentation. */
function indent(n: number): Code {
  return join(Array.from({ length: n }, () => _`  `), _``);
}
