// Execution of a parsed Go text/template (parse.ts) over Go-shaped values
// (fmt.ts), following text/template's exec.go: the default missingkey behaviour (a missing
// map key is "no value"), truth rules, variable scoping, range over slices/maps/ints with
// break/continue, and the builtin functions with Go's argument rules and error texts
// ("template: template:1:7: executing \"template\" at <.a.b>: nil pointer evaluating interface {}.b").
import { fromUtf8, isPrint, utf8, utf8Length as stringLength } from "../go/strconv.js";
import { queryEscape } from "../go/url.js";
import { JsonNumber, formatValue, goType, isMap, sprint, sprintf, sprintln, type GoMap, type GoVal } from "./fmt.js";
import { TemplateError, type Command, type ControlNode, type Operand, type Pipeline, type TemplateNode, type TemplateSet } from "./parse.js";

/** "No final value": the command is first in its pipeline. */
const MISSING = Symbol("missing");
type Final = GoVal | typeof MISSING;

const MAX_DEPTH = 1000;

interface Variable {
  name: string;
  value: GoVal;
}

type Flow = "break" | "continue" | undefined;

class FuncError extends Error {}

/** Executes a template set with `data` as dot and `$`; returns the output. */
export function executeTemplate(set: TemplateSet, data: GoVal, name = "template"): string {
  const state = new State(set, name, data);
  state.walkList(data, set.main);
  return state.out;
}

class State {
  out = "";
  private vars: Variable[];
  private node: { pos: number; src: string } | undefined;
  private depth = 0;

  constructor(
    private readonly set: TemplateSet,
    private tmplName: string,
    data: GoVal,
  ) {
    this.vars = [{ name: "$", value: data }];
  }

  private error(msg: string): never {
    const n = this.node;
    if (n === undefined) throw new TemplateError(`template: ${this.tmplName}: ${msg}`);
    const before = this.set.src.slice(0, n.pos);
    const line = before.split("\n").length;
    const col = n.pos - (before.lastIndexOf("\n") + 1);
    throw new TemplateError(`template: template:${line}:${col}: executing ${JSON.stringify(this.tmplName)} at <${n.src}>: ${msg}`);
  }

  private at(n: { pos: number; src: string }): void {
    this.node = n;
  }

  walkList(dot: GoVal, list: readonly TemplateNode[]): Flow {
    for (const n of list) {
      const flow = this.walk(dot, n);
      if (flow !== undefined) return flow;
    }
    return undefined;
  }

  private walk(dot: GoVal, n: TemplateNode): Flow {
    switch (n.t) {
      case "text":
        this.out += n.text;
        return undefined;
      case "action": {
        // Variables an action declares live until the end of the enclosing control.
        const v = this.evalPipeline(dot, n.pipe);
        if (n.pipe.decl.length === 0) this.out += v === undefined ? "<no value>" : formatValue(v);
        return undefined;
      }
      case "if":
      case "with": {
        const mark = this.vars.length;
        const v = this.evalPipeline(dot, n.pipe);
        let flow: Flow;
        if (truth(v)) flow = this.walkList(n.t === "with" ? v : dot, n.list);
        else if (n.elseList !== undefined) flow = this.walkList(dot, n.elseList);
        this.vars.length = mark;
        return flow;
      }
      case "range":
        return this.walkRange(dot, n);
      case "break":
      case "continue":
        return n.t;
      case "template":
        return this.walkTemplate(dot, n);
    }
  }

  private walkRange(dot: GoVal, n: ControlNode): Flow {
    const mark = this.vars.length;
    const val = this.evalPipeline(dot, n.pipe);
    const inner = this.vars.length;
    const decl = n.pipe.decl;
    let iterations = 0;
    const one = (index: GoVal, elem: GoVal): Flow => {
      iterations++;
      if (decl.length > 0) {
        if (n.pipe.isAssign) {
          if (decl.length > 1) {
            this.setVar(decl[0]!, index);
            this.setVar(decl[1]!, elem);
          } else this.setVar(decl[0]!, elem);
        } else {
          this.vars[this.vars.length - 1]!.value = elem;
          if (decl.length > 1) this.vars[this.vars.length - 2]!.value = index;
        }
      }
      const flow = this.walkList(elem, n.list);
      this.vars.length = inner;
      return flow;
    };
    if (Array.isArray(val)) {
      for (let i = 0; i < val.length; i++) if (one(BigInt(i), val[i]) === "break") break;
    } else if (isMap(val)) {
      for (const [k, v] of val) if (one(k, v) === "break") break;
    } else if (typeof val === "bigint") {
      this.at(n.pipe);
      if (decl.length > 1) this.error(`can't use ${val} to iterate over more than one variable`);
      for (let i = 0n; i < val; i++) if (one(i, i) === "break") break;
    } else if (val !== undefined && val !== null) {
      this.at(n.pipe);
      this.error(`range can't iterate over ${formatValue(val)}`);
    }
    let flow: Flow;
    if (iterations === 0 && n.elseList !== undefined) flow = this.walkList(dot, n.elseList);
    this.vars.length = mark;
    return flow === "break" || flow === "continue" ? flow : undefined;
  }

  private walkTemplate(dot: GoVal, n: Extract<TemplateNode, { t: "template" }>): Flow {
    const pipeText = n.pipe === undefined ? "" : ` ${n.pipe.src}`;
    this.at({ pos: n.pos, src: `{{template ${JSON.stringify(n.name)}${pipeText}}}` });
    const list = this.set.defs.get(n.name);
    if (list === undefined) this.error(`template ${JSON.stringify(n.name)} not defined`);
    if (++this.depth > MAX_DEPTH) this.error(`exceeded maximum template depth (${MAX_DEPTH})`);
    const newDot = n.pipe === undefined ? null : this.evalPipeline(dot, n.pipe);
    const saved = { vars: this.vars, name: this.tmplName };
    this.vars = [{ name: "$", value: newDot }];
    this.tmplName = n.name;
    this.walkList(newDot, list);
    this.vars = saved.vars;
    this.tmplName = saved.name;
    this.depth--;
    return undefined;
  }

  private setVar(name: string, value: GoVal): void {
    for (let i = this.vars.length - 1; i >= 0; i--) {
      if (this.vars[i]!.name === name) {
        this.vars[i]!.value = value;
        return;
      }
    }
    this.error(`undefined variable: ${name}`);
  }

  private varValue(name: string): GoVal {
    for (let i = this.vars.length - 1; i >= 0; i--) if (this.vars[i]!.name === name) return this.vars[i]!.value;
    return this.error(`undefined variable: ${name}`);
  }

  private evalPipeline(dot: GoVal, pipe: Pipeline): GoVal {
    this.at(pipe);
    let value: Final = MISSING;
    for (const cmd of pipe.cmds) value = this.evalCommand(dot, cmd, value);
    const v = value === MISSING ? undefined : value;
    // A nil interface{} result is "no value".
    const result = v === null ? undefined : v;
    for (const name of pipe.decl) {
      if (pipe.isAssign) this.setVar(name, result);
      else this.vars.push({ name, value: result });
    }
    return result;
  }

  private evalCommand(dot: GoVal, cmd: Command, final: Final): GoVal {
    const first = cmd.args[0]!;
    switch (first.t) {
      case "field":
        return this.evalFieldChain(dot, dot, first, first.names, cmd.args, final);
      case "variable": {
        this.at(first);
        const v = this.varValue(first.name);
        if (first.names.length > 0) return this.evalFieldChain(dot, v, first, first.names, cmd.args, final);
        this.notAFunction(cmd.args, final);
        return v;
      }
      case "pipe":
        if (first.names.length > 0) {
          const v = this.evalPipeline(dot, first.pipe);
          return this.evalFieldChain(dot, v, first, first.names, cmd.args, final);
        }
        this.notAFunction(cmd.args, final);
        return this.evalPipeline(dot, first.pipe);
      case "identifier":
        return this.evalCall(dot, first, cmd.args.slice(1), final);
      default:
        break;
    }
    this.at(first);
    this.notAFunction(cmd.args, final);
    switch (first.t) {
      case "bool":
        return first.value;
      case "dot":
        return dot;
      case "nil":
        return this.error("nil is not a command");
      default:
        return first.value;
    }
  }

  private notAFunction(args: readonly Operand[], final: Final): void {
    if (args.length > 1 || final !== MISSING) this.error(`can't give argument to non-function ${args[0]!.src}`);
  }

  private evalFieldChain(dot: GoVal, receiver: GoVal, node: Operand, names: readonly string[], args: readonly Operand[], final: Final): GoVal {
    this.at(node);
    let r = receiver;
    for (let i = 0; i < names.length - 1; i++) r = this.evalField(dot, names[i]!, [], MISSING, r, i === 0 && receiver === dot);
    return this.evalField(dot, names[names.length - 1]!, args, final, r, names.length === 1 && receiver === dot);
  }

  private evalField(dot: GoVal, name: string, args: readonly Operand[], final: Final, receiver: GoVal, isRoot: boolean): GoVal {
    if (receiver === undefined) return undefined;
    const type = isRoot && this.vars[0]!.value === receiver && isMap(receiver) ? "map[string]interface {}" : "interface {}";
    if (receiver === null) return this.error(`nil pointer evaluating ${type}.${name}`);
    if (receiver instanceof JsonNumber) return this.jsonNumberMethod(dot, receiver, name, args, final);
    if (isMap(receiver)) {
      if (args.length > 1 || final !== MISSING) this.error(`${name} is not a method but has arguments`);
      return receiver.get(name);
    }
    return this.error(`can't evaluate field ${name} in type ${type}`);
  }

  /** json.Number's methods: String, Int64, Float64. */
  private jsonNumberMethod(_dot: GoVal, n: JsonNumber, name: string, args: readonly Operand[], final: Final): GoVal {
    const given = args.length - 1 + (final === MISSING ? 0 : 1);
    if (name !== "String" && name !== "Int64" && name !== "Float64") this.error(`can't evaluate field ${name} in type json.Number`);
    if (given > 0) this.error(`wrong number of args for ${name}: want 0 got ${given}`);
    if (name === "String") return n.text;
    if (name === "Int64") {
      if (!/^[+-]?[0-9]+$/.test(n.text)) this.error(`error calling Int64: strconv.ParseInt: parsing ${JSON.stringify(n.text)}: invalid syntax`);
      return BigInt(n.text);
    }
    return Number(n.text);
  }

  /** An argument as a builtin sees it; `any` parameters take nil for "no value", reflect.Value ones refuse it. */
  private evalArg(dot: GoVal, n: Operand, param: "value" | "any" | "string"): GoVal {
    this.at(n);
    let v: GoVal;
    switch (n.t) {
      case "nil":
        if (param === "any") return null;
        return this.error(`cannot assign nil to ${param === "value" ? "reflect.Value" : "string"}`);
      case "bool":
      case "int":
      case "float":
        if (param === "string") this.error(`expected string; found ${n.src}`);
        return n.value;
      case "string":
        return n.value;
      case "dot":
        v = dot;
        break;
      case "identifier":
        v = this.evalCall(dot, n, [], MISSING);
        break;
      default:
        v = this.evalCommand(dot, { args: [n], src: n.src, pos: n.pos }, MISSING);
    }
    return this.validate(v, param);
  }

  private validate(v: GoVal, param: "value" | "any" | "string"): GoVal {
    if (v === undefined) {
      if (param === "any") return null;
      return this.error(`invalid value; expected ${param === "value" ? "reflect.Value" : "string"}`);
    }
    if (param === "string" && typeof v !== "string") this.error(`wrong type for value; expected string; got ${goType(v)}`);
    return v;
  }

  private evalCall(dot: GoVal, fn: Operand & { t: "identifier" }, args: readonly Operand[], final: Final): GoVal {
    this.at(fn);
    const name = fn.name;
    const spec = SIGNATURES[name]!;
    const numIn = args.length + (final === MISSING ? 0 : 1);
    if (spec.variadic) {
      if (numIn < spec.fixed) this.error(`wrong number of args for ${name}: want at least ${spec.fixed} got ${args.length}`);
    } else if (numIn !== spec.fixed) {
      this.error(`wrong number of args for ${name}: want ${spec.fixed} got ${numIn}`);
    }
    const paramOf = (i: number): "value" | "any" | "string" => (name === "printf" && i === 0 ? "string" : spec.param);
    if (name === "and" || name === "or") {
      let v: GoVal;
      for (const a of args) {
        v = this.evalArg(dot, a, "value");
        if (truth(v) === (name === "or")) return v;
      }
      if (final !== MISSING) v = this.validate(final, "value");
      return v;
    }
    const argv = args.map((a, i) => this.evalArg(dot, a, paramOf(i)));
    if (final !== MISSING) argv.push(this.validate(final, paramOf(argv.length)));
    this.at(fn);
    try {
      return callBuiltin(name, argv);
    } catch (e) {
      if (e instanceof FuncError) this.error(`error calling ${name}: ${e.message}`);
      throw e;
    }
  }
}

interface Signature {
  fixed: number;
  variadic: boolean;
  param: "value" | "any";
}

const SIGNATURES: Record<string, Signature> = {
  and: { fixed: 1, variadic: true, param: "value" },
  or: { fixed: 1, variadic: true, param: "value" },
  not: { fixed: 1, variadic: false, param: "value" },
  len: { fixed: 1, variadic: false, param: "value" },
  index: { fixed: 1, variadic: true, param: "value" },
  slice: { fixed: 1, variadic: true, param: "value" },
  call: { fixed: 1, variadic: true, param: "value" },
  eq: { fixed: 1, variadic: true, param: "value" },
  ne: { fixed: 2, variadic: false, param: "value" },
  lt: { fixed: 2, variadic: false, param: "value" },
  le: { fixed: 2, variadic: false, param: "value" },
  gt: { fixed: 2, variadic: false, param: "value" },
  ge: { fixed: 2, variadic: false, param: "value" },
  print: { fixed: 0, variadic: true, param: "any" },
  println: { fixed: 0, variadic: true, param: "any" },
  printf: { fixed: 1, variadic: true, param: "any" },
  html: { fixed: 0, variadic: true, param: "any" },
  js: { fixed: 0, variadic: true, param: "any" },
  urlquery: { fixed: 0, variadic: true, param: "any" },
};

/** Go's truth: false, 0, nil, "no value" and empty strings/slices/maps are false. */
export function truth(v: GoVal): boolean {
  if (v === undefined || v === null) return false;
  if (typeof v === "boolean") return v;
  if (typeof v === "string") return v.length > 0;
  if (typeof v === "bigint") return v !== 0n;
  if (typeof v === "number") return v !== 0;
  if (v instanceof JsonNumber) return v.text.length > 0;
  if (Array.isArray(v)) return v.length > 0;
  return (v as GoMap).size > 0;
}

function callBuiltin(name: string, argv: GoVal[]): GoVal {
  switch (name) {
    case "not":
      return !truth(argv[0]);
    case "len":
      return length(argv[0]);
    case "index":
      return index(argv[0], argv.slice(1));
    case "slice":
      return slice(argv[0], argv.slice(1));
    case "call":
      throw new FuncError(`non-function of type ${goType(argv[0])}`);
    case "eq":
      return eq(argv[0], argv.slice(1));
    case "ne":
      return !eq(argv[0], [argv[1]]);
    case "lt":
      return lt(argv[0], argv[1]);
    case "le":
      return lt(argv[0], argv[1]) || eq(argv[0], [argv[1]]);
    case "gt":
      return !(lt(argv[0], argv[1]) || eq(argv[0], [argv[1]]));
    case "ge":
      return !lt(argv[0], argv[1]);
    case "print":
      return sprint(argv);
    case "println":
      return sprintln(argv);
    case "printf":
      return sprintf(argv[0] as string, argv.slice(1));
    case "html":
      return htmlEscape(evalArgs(argv));
    case "js":
      return jsEscape(evalArgs(argv));
    default:
      return queryEscape(evalArgs(argv));
  }
}

function length(v: GoVal): GoVal {
  if (v === null) throw new FuncError("len of nil pointer");
  if (typeof v === "string") return BigInt(stringLength(v));
  if (v instanceof JsonNumber) return BigInt(stringLength(v.text));
  if (Array.isArray(v)) return BigInt(v.length);
  if (isMap(v)) return BigInt(v.size);
  throw new FuncError(`len of type ${goType(v)}`);
}

function indexArg(i: GoVal, cap: number): number {
  if (i === null) throw new FuncError("cannot index slice/array with nil");
  if (typeof i !== "bigint") throw new FuncError(`cannot index slice/array with type ${goType(i)}`);
  if (i < 0n || i > BigInt(cap)) throw new FuncError(`index out of range: ${i}`);
  return Number(i);
}

function index(item: GoVal, indexes: GoVal[]): GoVal {
  if (item === null) throw new FuncError("index of untyped nil");
  let cur: GoVal = item;
  for (const i of indexes) {
    if (cur === null || cur === undefined) throw new FuncError("index of nil pointer");
    if (Array.isArray(cur) || typeof cur === "string" || cur instanceof JsonNumber) {
      const seq: readonly GoVal[] = Array.isArray(cur) ? cur : [...utf8(typeof cur === "string" ? cur : cur.text)].map((b) => BigInt(b));
      const x = indexArg(i, seq.length);
      if (x >= seq.length) throw new FuncError(`index out of range: ${x}`);
      cur = seq[x];
    } else if (isMap(cur)) {
      if (i === null) throw new FuncError("value is nil; should be of type string");
      if (typeof i !== "string") throw new FuncError(`value has type ${goType(i)}; should be string`);
      cur = cur.has(i) ? cur.get(i) : null;
    } else {
      throw new FuncError(`can't index item of type ${goType(cur)}`);
    }
  }
  return cur;
}

function slice(item: GoVal, indexes: GoVal[]): GoVal {
  if (item === null) throw new FuncError("slice of untyped nil");
  if (indexes.length > 3) throw new FuncError(`too many slice indexes: ${indexes.length}`);
  let len: number;
  if (typeof item === "string") {
    if (indexes.length === 3) throw new FuncError("cannot 3-index slice a string");
    len = stringLength(item);
  } else if (Array.isArray(item)) {
    len = item.length;
  } else {
    throw new FuncError(`can't slice item of type ${goType(item)}`);
  }
  const idx = [0, len];
  for (let k = 0; k < indexes.length; k++) idx[k] = indexArg(indexes[k]!, len);
  if (idx[0]! > idx[1]!) throw new FuncError(`invalid slice index: ${idx[0]} > ${idx[1]}`);
  if (Array.isArray(item)) return item.slice(idx[0], idx[1]);
  return fromUtf8(utf8(item as string).slice(idx[0], idx[1]));
}

type Kind = "bool" | "int" | "float" | "string" | "invalid";

function basicKind(v: GoVal): Kind {
  if (typeof v === "boolean") return "bool";
  if (typeof v === "bigint") return "int";
  if (typeof v === "number") return "float";
  if (typeof v === "string" || v instanceof JsonNumber) return "string";
  return "invalid";
}

const textOf = (v: GoVal): string => (typeof v === "string" ? v : (v as JsonNumber).text);

function eq(arg1: GoVal, rest: GoVal[]): boolean {
  if (rest.length === 0) throw new FuncError("missing argument for comparison");
  const k1 = basicKind(arg1);
  for (const arg of rest) {
    const k2 = basicKind(arg);
    let t = false;
    if (k1 !== k2) {
      if (arg1 !== null && arg !== null) throw new FuncError("incompatible types for comparison");
    } else if (k1 === "string") {
      t = textOf(arg1) === textOf(arg);
    } else if (k1 !== "invalid") {
      t = arg1 === arg;
    } else if (arg1 === null || arg === null) {
      t = arg1 === arg;
    } else if (Array.isArray(arg1) === Array.isArray(arg)) {
      throw new FuncError(`non-comparable type ${formatValue(arg)}: ${goType(arg)}`);
    } else {
      throw new FuncError(`non-comparable types ${formatValue(arg1)}: ${goType(arg1)}, ${goType(arg)}: ${formatValue(arg)}`);
    }
    if (t) return true;
  }
  return false;
}

function lt(a: GoVal, b: GoVal): boolean {
  const k1 = basicKind(a);
  const k2 = basicKind(b);
  if (k1 === "invalid" || k2 === "invalid") throw new FuncError("invalid type for comparison");
  if (k1 !== k2) throw new FuncError("incompatible types for comparison");
  if (k1 === "bool") throw new FuncError("invalid type for comparison");
  if (k1 === "string") return compareCodePoints(textOf(a), textOf(b)) < 0;
  return (a as number | bigint) < (b as number | bigint);
}

/** Go compares strings by their UTF-8 bytes, which orders like code points. */
function compareCodePoints(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/** The text html/js/urlquery escape: one string argument as is, otherwise fmt.Sprint. */
function evalArgs(args: GoVal[]): string {
  if (args.length === 1 && typeof args[0] === "string") return args[0];
  return sprint(args);
}

function htmlEscape(s: string): string {
  return s.replace(/[\0"'&<>]/g, (c) => ({ "\0": "\uFFFD", '"': "&#34;", "'": "&#39;", "&": "&amp;", "<": "&lt;", ">": "&gt;" })[c]!);
}

function jsEscape(s: string): string {
  let out = "";
  for (const c of s) {
    const cp = c.codePointAt(0)!;
    if (c === "\\") out += "\\\\";
    else if (c === "'") out += "\\'";
    else if (c === '"') out += '\\"';
    else if (c === "<" || c === ">" || c === "&" || c === "=") out += `\\u${cp.toString(16).toUpperCase().padStart(4, "0")}`;
    else if (!isPrint(cp)) {
      out += cp < 0x10000 ? `\\u${cp.toString(16).toUpperCase().padStart(4, "0")}` : c;
    } else out += c;
  }
  return out;
}

