// `regoc/eval`: what generated code calls, and nothing else (applications import `regoc`). The
// names are compiler/codegen/names.ts's RT table; builtins come from `regoc/builtins/<category>`,
// one module per category, so that a bundle of a generated module holds only what it calls.
export type { MaybeValue, Value, PlainObject } from "../value/value.js";
export type { Num } from "../value/number.js";
export type { ObjectValue } from "../value/object.js";
export type { EvalOptions } from "../builtins/context.js";
export type { BuiltinTable } from "../builtins/registry.js";
export type { ResultSet, EntrypointTable } from "./prepared.js";
export { RegoSet } from "../value/set.js";
export { RegoObject } from "../value/object.js";
export { equal } from "../value/compare.js";
export { EvalState, NO_STATE, call0, call1, call2, call3, callN, callVoid, callAsync, type MemoFrame } from "./state.js";
export { ResultSetBuilder } from "./results.js";
export { builtinSites, conflictSites } from "./sites.js";
export { cover } from "./coverage.js";
export { tickTo } from "./deadline.js";
export {
  EMPTY_OBJECT,
  NOT_FOUND,
  dot,
  dotKey,
  getPrototypeOf,
  OBJECT_PROTOTYPE,
  dotData,
  len,
  scanView,
  scanKey,
  scanValue,
  eq,
  lt,
  lte,
  gt,
  gte,
  neq,
  member,
  isArrayType,
  isBooleanType,
  isNullType,
  isNumberType,
  isObjectType,
  isSetType,
  isStringType,
  isObjectValue,
  isSetValue,
  constantArray,
  newObject,
  push,
  reserve,
  addTo,
  insert,
  insertOnce,
  groupCount,
  groupPush,
  groupAddTo,
  assignOnce,
  merge,
  upsert,
  num,
  internalError,
  pathKey,
} from "./ops.js";
