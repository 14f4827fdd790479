// Identifiers of generated code. They are allocated, never derived raw:
//   - `Scope.name(prefix)` hands out `prefix0`, `prefix1`, ... for the generator's own names
//     (locals `l3`, labels `b2`, iterators `i0`, ...);
//   - `Scope.ident(text)` is THE identifier function for names derived from a policy or plan
//     (entrypoints, IR funcs, type names, Rego variables): sanitised to [A-Za-z0-9_], camelCased
//     (a Rego variable keeps its spelling, `user_id`), kept clear of
//     reserved words, globals, runtime imports and the generator's own `x123` pattern, and made
//     unique. Whatever the text, the result is a valid identifier no other name can collide with.
// The fixed names every generated module shares (the runtime imports) are in one table, RT.
import { Name } from "./code.js";

/** Runtime exports generated code may import from "regoc/eval" (see runtime/eval/index.ts). */
export const RT = {
  // types
  MaybeValue: "MaybeValue",
  Value: "Value",
  Num: "Num",
  ObjectValue: "ObjectValue",
  PlainObject: "PlainObject",
  EvalOptions: "EvalOptions",
  ResultSet: "ResultSet",
  EntrypointTable: "EntrypointTable",
  MemoFrame: "MemoFrame",
  // values
  EvalState: "EvalState",
  NO_STATE: "NO_STATE",
  ResultSetBuilder: "ResultSetBuilder",
  RegoSet: "RegoSet",
  RegoObject: "RegoObject",
  EMPTY_OBJECT: "EMPTY_OBJECT",
  NOT_FOUND: "NOT_FOUND",
  builtinSites: "builtinSites",
  conflictSites: "conflictSites",
  call0: "call0",
  call1: "call1",
  call2: "call2",
  call3: "call3",
  callN: "callN",
  callVoid: "callVoid",
  callAsync: "callAsync",
  dot: "dot",
  dotKey: "dotKey",
  getPrototypeOf: "getPrototypeOf",
  OBJECT_PROTOTYPE: "OBJECT_PROTOTYPE",
  dotData: "dotData",
  len: "len",
  scanView: "scanView",
  scanKey: "scanKey",
  scanValue: "scanValue",
  tickTo: "tickTo",
  equal: "equal",
  eq: "eq",
  lt: "lt",
  lte: "lte",
  gt: "gt",
  gte: "gte",
  neq: "neq",
  member: "member",
  isArrayType: "isArrayType",
  isBooleanType: "isBooleanType",
  isNullType: "isNullType",
  isNumberType: "isNumberType",
  isObjectType: "isObjectType",
  isSetType: "isSetType",
  isStringType: "isStringType",
  isObjectValue: "isObjectValue",
  isSetValue: "isSetValue",
  constantArray: "constantArray",
  newObject: "newObject",
  push: "push",
  reserve: "reserve",
  addTo: "addTo",
  insert: "insert",
  insertOnce: "insertOnce",
  groupCount: "groupCount",
  groupPush: "groupPush",
  groupAddTo: "groupAddTo",
  assignOnce: "assignOnce",
  merge: "merge",
  upsert: "upsert",
  num: "num",
  internalError: "internalError",
  pathKey: "pathKey",
  cover: "cover",
} as const;

export type RuntimeName = keyof typeof RT;

/** Names of type-only runtime imports. */
export const RT_TYPES: ReadonlySet<RuntimeName> = new Set<RuntimeName>([
  "MaybeValue",
  "Value",
  "Num",
  "ObjectValue",
  "PlainObject",
  "EvalOptions",
  "ResultSet",
  "EntrypointTable",
  "MemoFrame",
]);

/** Module-level names the generator itself declares. */
export const FIXED = {
  V: "V",
  state: "$",
  entrypoints: "entrypoints",
  dispatch: "callDynamic",
  // parameter names of generated functions, kept clear of module-level names they could shadow
  input: "input",
  data: "data",
  // an entrypoint's input and data as values (its parameters `input` and `data` have their types)
  inputValue: "inputValue",
  dataValue: "dataValue",
  options: "options",
  key: "key",
  // the module's site tables (emit/context.ts): short, as `K` is named at every conflict check
  builtinSites: "C",
  conflictSites: "K",
} as const;

const RESERVED = new Set([
  // ECMAScript reserved words, strict-mode and TS contextual words that cannot name a function
  "break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete", "do", "else",
  "enum", "export", "extends", "false", "finally", "for", "function", "if", "import", "in", "instanceof",
  "new", "null", "return", "super", "switch", "this", "throw", "true", "try", "typeof", "var", "void",
  "while", "with", "yield", "let", "static", "implements", "interface", "package", "private",
  "protected", "public", "await", "async", "arguments", "eval", "undefined", "NaN", "Infinity",
  "type", "declare", "namespace", "module", "abstract", "as", "any", "unknown", "never", "object",
  "string", "number", "boolean", "symbol", "bigint", "keyof", "readonly", "infer", "is", "asserts",
  "satisfies", "of", "get", "set", "constructor", "require", "exports",
  // globals generated code or the runtime may rely on
  "globalThis", "Object", "Array", "Map", "Set", "JSON", "Math", "Number", "String", "Boolean",
  "Symbol", "Promise", "Error", "BigInt", "Reflect", "Proxy", "Function", "Date", "RegExp",
  "console", "Record", "Partial", "Readonly", "ReadonlyArray", "Iterable",
  ...Object.values(RT),
  ...Object.values(FIXED),
]);

/** The generator's own names look like this; derived names never do. */
const INTERNAL = /^[A-Za-z]{1,2}\d+$/;

/**
 * The alphanumeric words of `text` joined, each capitalised — the first lower-cased instead when
 * `style` is "camel": "authz/allow_all" → "authzAllowAll". Style "var" keeps the letters, digits
 * and inner underscores as they are: "user_id" → "user_id" (a leading underscore is dropped: the
 * names of unused parameters start with one, `Name.unused`).
 */
function joinedWords(text: string, style: IdentStyle): string {
  if (style === "var") return varWords(text);
  let out = "";
  for (const word of text.split(/[^A-Za-z0-9]+/)) {
    if (word === "") continue;
    const first = out === "" && style === "camel" ? word[0]!.toLowerCase() : word[0]!.toUpperCase();
    out += first + word.slice(1);
  }
  return out;
}

/** joinedWords' "var" style. */
function varWords(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const alnum = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39);
    if (alnum || (c === 0x5f && out !== "")) out += text[i];
  }
  return out;
}

export type IdentStyle = "camel" | "pascal" | "var";

export class Scope {
  /** Each prefix used, then its count: a scope numbers a handful of prefixes (no Map per
   * function's scope: hot, see bench/frontend.bench.ts). */
  private readonly counters: Array<string | number> = [];

  /** `shared`: names already made, by prefix and number, for scopes that number alike (each
   * function's starts again at `b0`, `l0`, ...: the same Names serve every function). */
  constructor(
    private readonly shared?: Map<string, Name[]>,
    /** The enclosing scope (a function's: the module's), whose names this one's must not take. */
    private readonly parent?: Scope,
  ) {}

  /** Made on first use: a function's scope only numbers names. */
  private usedTexts: Set<string> | undefined;

  private get used(): Set<string> {
    return (this.usedTexts ??= new Set());
  }

  /** A fresh generator-owned name: `prefix` + counter (prefix: 1-2 lowercase letters). Nothing
   * else has that shape: `ident` never returns it and `reserve` refuses it. */
  name(prefix: string): Name {
    const counters = this.counters;
    let at = 0;
    while (at < counters.length && counters[at] !== prefix) at += 2;
    if (at === counters.length) counters.push(prefix, 0);
    const n = counters[at + 1] as number;
    counters[at + 1] = n + 1;
    if (this.shared === undefined) return Name.numbered(prefix, n);
    let names = this.shared.get(prefix);
    if (!names) this.shared.set(prefix, (names = []));
    return (names[n] ??= Name.numbered(prefix, n));
  }

  /** Marks a fixed name as taken. */
  reserve(text: string): Name {
    if (INTERNAL.test(text)) throw new Error(`codegen: ${JSON.stringify(text)} has the shape of the generator's own names`);
    this.used.add(text);
    return new Name(text);
  }

  /** The identifier function: a unique, valid identifier derived from arbitrary text. */
  ident(text: string, style: IdentStyle = "camel"): Name {
    let base = joinedWords(text, style);
    if (base === "") base = style === "pascal" ? "Policy" : "policy";
    if (/^[0-9]/.test(base)) base = `_${base}`;
    if (RESERVED.has(base) || INTERNAL.test(base)) base = `${base}_`;
    let text2 = base;
    // (`i2` would be a generator's name and `member_22` ambiguous: `i_2`, `member_2_2` then)
    const sep = base.length <= 2 || /[0-9]$/.test(base) ? "_" : "";
    // (the numbers go on from the last one tried for this base: many sites of one builtin)
    let i = this.suffixes?.get(base) ?? 2;
    if (this.taken(text2)) {
      while (this.taken((text2 = `${base}${sep}${i}`))) i++;
      (this.suffixes ??= new Map()).set(base, i + 1);
    }
    this.used.add(text2);
    this.parent?.inner.add(text2);
    return new Name(text2);
  }

  /** By base: the number to try next for it (ident). */
  private suffixes: Map<string, number> | undefined;

  /** The names scopes inside this one took (a module's: its functions' locals), which a name this
   * one makes later must not shadow in them. */
  private readonly inner = new Set<string>();

  private taken(text: string): boolean {
    return this.used.has(text) || this.inner.has(text) || (this.parent !== undefined && this.parent.used.has(text));
  }
}
