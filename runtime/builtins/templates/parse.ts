// Go's text/template language, parsed, for strings.render_template. Hand-written: no JS template
// library speaks Go's template syntax, and OPA renders with Go's text/template. This covers the
// language as Go 1.2x defines it — text, {{- -}} trimming, comments, pipelines with | and
// parentheses, fields, variables ($x := / $x =), constants, if/else if/with/else with/range/
// break/continue, define/template/block — and reports parse errors in Go's form
// ("template: template:1: unexpected EOF"). Execution is in exec.ts.

export type Operand =
  | { t: "field"; names: string[]; src: string; pos: number }
  | { t: "variable"; name: string; names: string[]; src: string; pos: number }
  | { t: "dot"; src: string; pos: number }
  | { t: "nil"; src: string; pos: number }
  | { t: "bool"; value: boolean; src: string; pos: number }
  | { t: "int"; value: bigint; src: string; pos: number }
  | { t: "float"; value: number; src: string; pos: number }
  | { t: "string"; value: string; src: string; pos: number }
  | { t: "identifier"; name: string; src: string; pos: number }
  | { t: "pipe"; pipe: Pipeline; names: string[]; src: string; pos: number };

export interface Command {
  args: Operand[];
  src: string;
  pos: number;
}

export interface Pipeline {
  decl: string[];
  isAssign: boolean;
  cmds: Command[];
  src: string;
  pos: number;
}

/** {{if}}, {{with}} and {{range}}: a pipeline, a body, and an optional {{else}} body. */
export interface ControlNode {
  t: "if" | "with" | "range";
  pipe: Pipeline;
  list: TemplateNode[];
  elseList: TemplateNode[] | undefined;
}

export type TemplateNode =
  | { t: "text"; text: string }
  | { t: "action"; pipe: Pipeline }
  | ControlNode
  | { t: "break" | "continue"; pos: number }
  | { t: "template"; name: string; pipe: Pipeline | undefined; pos: number };

export class TemplateError extends Error {}

/** Function names the parser accepts (Go's builtins; there are no user functions). */
export const FUNCTION_NAMES = new Set(["and", "call", "html", "index", "slice", "js", "len", "not", "or", "print", "printf", "println", "urlquery", "eq", "ge", "gt", "le", "lt", "ne"]);

const KEYWORDS = new Set(["block", "break", "continue", "define", "else", "end", "if", "range", "nil", "template", "with"]);

const enum I {
  EOF,
  Text,
  Comment,
  LeftDelim,
  RightDelim,
  Space,
  Assign,
  Declare,
  Pipe,
  LeftParen,
  RightParen,
  Char,
  String,
  RawString,
  CharConstant,
  Number,
  Bool,
  Dot,
  Field,
  Variable,
  Identifier,
  Keyword,
}

interface Item {
  i: I;
  val: string;
  pos: number;
}

const isSpace = (c: string | undefined): boolean => c === " " || c === "\t" || c === "\r" || c === "\n";
const isAlnum = (c: string | undefined): boolean => c !== undefined && /^[\p{L}\p{Nd}_]$/u.test(c);

/** Go's template lexer: the whole item stream (errors are thrown with the line they occur on). */
function lex(src: string, fail: (pos: number, msg: string) => never): Item[] {
  const items: Item[] = [];
  let pos = 0;
  let trimNext = false;
  while (pos < src.length || items.length === 0 || items[items.length - 1]!.i !== I.EOF) {
    // Text up to the next action.
    let end = src.indexOf("{{", pos);
    if (end < 0) end = src.length;
    let text = src.slice(pos, end);
    if (trimNext) text = text.replace(/^[ \t\r\n]+/, "");
    trimNext = false;
    const leftTrim = end < src.length && src[end + 2] === "-" && isSpace(src[end + 3]);
    if (leftTrim) text = text.replace(/[ \t\r\n]+$/, "");
    if (text !== "") items.push({ i: I.Text, val: text, pos });
    if (end >= src.length) {
      items.push({ i: I.EOF, val: "", pos: src.length });
      return items;
    }
    pos = end + 2 + (leftTrim ? 2 : 0);
    items.push({ i: I.LeftDelim, val: "{{", pos: end });
    if (src.startsWith("/*", pos)) {
      const close = src.indexOf("*/", pos + 2);
      if (close < 0) fail(pos, "unclosed comment");
      pos = close + 2;
      const right = atRightDelim(src, pos);
      if (right === undefined) fail(pos, "comment ends before closing delimiter");
      items.pop();
      pos = right.end;
      trimNext = right.trim;
      continue;
    }
    pos = lexAction(src, pos, items, fail, (trim) => (trimNext = trim));
  }
  return items;
}

function atRightDelim(src: string, pos: number): { end: number; trim: boolean } | undefined {
  if (isSpace(src[pos]) && src[pos + 1] === "-" && src.startsWith("}}", pos + 2)) return { end: pos + 4, trim: true };
  if (src.startsWith("}}", pos)) return { end: pos + 2, trim: false };
  return undefined;
}

function lexAction(src: string, start: number, items: Item[], fail: (pos: number, msg: string) => never, setTrim: (t: boolean) => void): number {
  let pos = start;
  let parens = 0;
  for (;;) {
    const right = atRightDelim(src, pos);
    if (right !== undefined) {
      if (parens > 0) fail(pos, "unclosed left paren");
      items.push({ i: I.RightDelim, val: "}}", pos });
      setTrim(right.trim);
      return right.end;
    }
    const c = src[pos];
    const from = pos;
    if (c === undefined) fail(pos, "unclosed action");
    if (isSpace(c)) {
      while (isSpace(src[pos]) && atRightDelim(src, pos)?.trim !== true) pos++;
      items.push({ i: I.Space, val: src.slice(from, pos), pos: from });
      continue;
    }
    pos++;
    if (c === "=") items.push({ i: I.Assign, val: c, pos: from });
    else if (c === ":") {
      if (src[pos] !== "=") fail(from, "expected :=");
      pos++;
      items.push({ i: I.Declare, val: ":=", pos: from });
    } else if (c === "|") items.push({ i: I.Pipe, val: c, pos: from });
    else if (c === '"' || c === "'") {
      for (;;) {
        const ch = src[pos++];
        if (ch === "\\" && src[pos] !== undefined && src[pos] !== "\n") pos++;
        else if (ch === undefined || ch === "\n") fail(from, c === '"' ? "unterminated quoted string" : "unterminated character constant");
        else if (ch === c) break;
      }
      items.push({ i: c === '"' ? I.String : I.CharConstant, val: src.slice(from, pos), pos: from });
    } else if (c === "`") {
      const close = src.indexOf("`", pos);
      if (close < 0) fail(from, "unterminated raw quoted string");
      pos = close + 1;
      items.push({ i: I.RawString, val: src.slice(from, pos), pos: from });
    } else if (c === "$" || (c === "." && !/[0-9]/.test(src[pos] ?? ""))) {
      while (isAlnum(src[pos])) pos++;
      const val = src.slice(from, pos);
      items.push({ i: c === "$" ? I.Variable : val === "." ? I.Dot : I.Field, val, pos: from });
      checkTerminator(src, pos, fail);
    } else if (c === "+" || c === "-" || c === "." || /[0-9]/.test(c)) {
      const m = /^[+-]?(?:0[xX][0-9a-fA-F_]*(?:\.[0-9a-fA-F_]*)?(?:[pP][+-]?[0-9_]+)?|0[oObB][0-9_]+|[0-9_]*\.?[0-9_]*(?:[eE][+-]?[0-9_]+)?)i?/.exec(src.slice(from))!;
      pos = from + Math.max(m[0].length, 1);
      if (isAlnum(src[pos])) fail(from, `bad number syntax: "${src.slice(from, pos + 1)}"`);
      items.push({ i: I.Number, val: src.slice(from, pos), pos: from });
    } else if (isAlnum(c)) {
      while (isAlnum(src[pos])) pos++;
      const word = src.slice(from, pos);
      items.push({ i: word === "true" || word === "false" ? I.Bool : KEYWORDS.has(word) ? I.Keyword : I.Identifier, val: word, pos: from });
      checkTerminator(src, pos, fail);
    } else if (c === "(") {
      parens++;
      items.push({ i: I.LeftParen, val: c, pos: from });
    } else if (c === ")") {
      if (--parens < 0) fail(from, "unexpected right paren");
      items.push({ i: I.RightParen, val: c, pos: from });
    } else if (c.charCodeAt(0) < 0x7f && c.charCodeAt(0) > 0x20) {
      items.push({ i: I.Char, val: c, pos: from });
    } else {
      fail(from, `unrecognized character in action: U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`);
    }
  }
}

function checkTerminator(src: string, pos: number, fail: (pos: number, msg: string) => never): void {
  const c = src[pos];
  if (c === undefined || isSpace(c) || ".,|:)(=".includes(c) || src.startsWith("}}", pos)) return;
  fail(pos, `bad character U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")} '${c}'`);
}

/** A parsed template set: the main template and the {{define}}d ones. */
export interface TemplateSet {
  main: TemplateNode[];
  defs: Map<string, TemplateNode[]>;
  src: string;
}

export function parseTemplate(src: string, name = "template"): TemplateSet {
  const lineOf = (pos: number) => src.slice(0, pos).split("\n").length;
  const fail = (pos: number, msg: string): never => {
    throw new TemplateError(`template: ${name}:${lineOf(pos)}: ${msg}`);
  };
  return new Parser(src, lex(src, fail), fail).parse();
}

class Parser {
  private k = 0;
  private vars: string[] = ["$"];
  private rangeDepth = 0;
  private readonly defs = new Map<string, TemplateNode[]>();

  constructor(
    private readonly src: string,
    private readonly items: Item[],
    private readonly fail: (pos: number, msg: string) => never,
  ) {}

  private next(): Item {
    return this.items[Math.min(this.k++, this.items.length - 1)]!;
  }
  private peek(): Item {
    return this.items[Math.min(this.k, this.items.length - 1)]!;
  }
  private nextNonSpace(): Item {
    let it = this.next();
    while (it.i === I.Space) it = this.next();
    return it;
  }
  private peekNonSpace(): Item {
    const it = this.nextNonSpace();
    this.k--;
    return it;
  }
  private unexpected(it: Item, context: string): never {
    if (it.i === I.EOF) this.fail(it.pos, `unexpected EOF in ${context}`);
    return this.fail(it.pos, `unexpected ${describe(it)} in ${context}`);
  }

  parse(): TemplateSet {
    const main: TemplateNode[] = [];
    for (;;) {
      const it = this.peek();
      if (it.i === I.EOF) break;
      if (it.i === I.LeftDelim) {
        const save = this.k;
        this.next();
        if (this.peekNonSpace().val === "define" && this.peekNonSpace().i === I.Keyword) {
          this.nextNonSpace();
          this.parseDefinition();
          continue;
        }
        this.k = save;
      }
      const [node, stop] = this.textOrAction();
      if (stop !== undefined) this.fail(stop.pos, `unexpected {{${stop.val}}}`);
      if (node !== undefined) main.push(node);
    }
    return { main, defs: this.defs, src: this.src };
  }

  private parseDefinition(): void {
    const nameItem = this.nextNonSpace();
    const name = stringValue(nameItem) ?? this.unexpected(nameItem, "define clause");
    if (this.nextNonSpace().i !== I.RightDelim) this.fail(nameItem.pos, "unexpected token in define clause");
    const saved = this.vars;
    this.vars = ["$"];
    const [list, end] = this.itemList();
    if (end.val !== "end") this.fail(end.pos, `unexpected {{${end.val}}} in define`);
    this.vars = saved;
    this.defs.set(name, list);
  }

  /** A text node, an action, or a stop keyword ({{end}}, {{else ...}}) for the caller. */
  private textOrAction(): [TemplateNode | undefined, Item | undefined] {
    const it = this.nextNonSpace();
    if (it.i === I.Text) return [{ t: "text", text: it.val }, undefined];
    if (it.i === I.LeftDelim) return this.action();
    return this.unexpected(it, "input");
  }

  private action(): [TemplateNode | undefined, Item | undefined] {
    const it = this.nextNonSpace();
    if (it.i === I.Keyword) {
      switch (it.val) {
        case "end":
          this.expectRight("end");
          return [undefined, it];
        case "else":
          return [undefined, it]; // the caller reads what follows
        case "if":
        case "with":
        case "range":
          return [this.control(it.val), undefined];
        case "break":
        case "continue":
          if (this.rangeDepth === 0) this.fail(it.pos, `{{${it.val}}} outside {{range}}`);
          this.expectRight(it.val);
          return [{ t: it.val, pos: it.pos }, undefined];
        case "template":
        case "block":
          return [this.templateCall(it), undefined];
        default:
          break;
      }
    }
    this.k--;
    return [{ t: "action", pipe: this.pipeline("command", I.RightDelim) }, undefined];
  }

  private expectRight(context: string): void {
    const it = this.nextNonSpace();
    if (it.i !== I.RightDelim) this.unexpected(it, context);
  }

  private itemList(): [TemplateNode[], Item] {
    const list: TemplateNode[] = [];
    for (;;) {
      if (this.peekNonSpace().i === I.EOF) this.fail(this.peekNonSpace().pos, `unexpected EOF`);
      const [node, stop] = this.textOrAction();
      if (stop !== undefined) return [list, stop];
      if (node !== undefined) list.push(node);
    }
  }

  private control(kind: "if" | "with" | "range"): TemplateNode {
    const mark = this.vars.length;
    const pipe = this.pipeline(kind, I.RightDelim);
    if (kind === "range") this.rangeDepth++;
    let [list, stop] = this.itemList();
    if (kind === "range") this.rangeDepth--;
    let elseList: TemplateNode[] | undefined;
    if (stop.val === "else") {
      const after = this.peekNonSpace();
      if ((kind === "if" || kind === "with") && after.i === I.Keyword && after.val === kind) {
        // {{else if ...}} / {{else with ...}}: a nested control sharing our {{end}}.
        this.nextNonSpace();
        elseList = [this.control(kind)];
        this.vars.length = mark;
        return { t: kind, pipe, list, elseList };
      }
      this.expectRight("else");
      [elseList, stop] = this.itemList();
      if (stop.val !== "end") this.fail(stop.pos, `expected end; found {{${stop.val}}}`);
    }
    this.vars.length = mark;
    return { t: kind, pipe, list, elseList };
  }

  private templateCall(keyword: Item): TemplateNode {
    const context = `${keyword.val} clause`;
    const nameItem = this.nextNonSpace();
    const name = stringValue(nameItem) ?? this.unexpected(nameItem, context);
    let pipe: Pipeline | undefined;
    if (this.peekNonSpace().i !== I.RightDelim) pipe = this.pipeline(context, I.RightDelim);
    else this.nextNonSpace();
    if (keyword.val === "block") {
      const saved = this.vars;
      this.vars = ["$"];
      const [list, end] = this.itemList();
      if (end.val !== "end") this.fail(end.pos, `unexpected {{${end.val}}} in block`);
      this.vars = saved;
      this.defs.set(name, list);
    }
    return { t: "template", name, pipe, pos: nameItem.pos };
  }

  private pipeline(context: string, end: I): Pipeline {
    const start = this.peekNonSpace().pos;
    const pipe: Pipeline = { decl: [], isAssign: false, cmds: [], src: "", pos: start };
    const first = this.peekNonSpace();
    if (first.i === I.Variable) {
      const save = this.k;
      this.nextNonSpace();
      const op = this.peekNonSpace();
      if (op.i === I.Declare || op.i === I.Assign) {
        this.nextNonSpace();
        pipe.decl.push(first.val);
        pipe.isAssign = op.i === I.Assign;
        if (op.i === I.Declare) this.vars.push(first.val);
        else if (!this.vars.includes(first.val)) this.fail(first.pos, `undefined variable "${first.val}"`);
      } else if (op.i === I.Char && op.val === "," && context === "range") {
        this.nextNonSpace();
        const second = this.nextNonSpace();
        if (second.i !== I.Variable) this.fail(second.pos, `range can only initialize variables`);
        const decl = this.nextNonSpace();
        if (decl.i !== I.Declare && decl.i !== I.Assign) this.fail(decl.pos, `expected := or = after ${second.val}`);
        pipe.decl.push(first.val, second.val);
        pipe.isAssign = decl.i === I.Assign;
        if (decl.i === I.Declare) this.vars.push(first.val, second.val);
      } else {
        this.k = save;
      }
    }
    for (;;) {
      const it = this.nextNonSpace();
      if (it.i === end) {
        if (pipe.cmds.length === 0) this.fail(it.pos, `missing value for ${context}`);
        for (let i = 1; i < pipe.cmds.length; i++) {
          const a = pipe.cmds[i]!.args[0]!;
          if (a.t === "bool" || a.t === "dot" || a.t === "nil" || a.t === "int" || a.t === "float" || a.t === "string") {
            this.fail(a.pos, `non executable command in pipeline stage ${i + 1}`);
          }
        }
        pipe.src = this.src.slice(start, it.pos).trim();
        return pipe;
      }
      if (isOperandStart(it)) {
        this.k--;
        pipe.cmds.push(this.command());
      } else {
        this.unexpected(it, context);
      }
    }
  }

  private command(): Command {
    const start = this.peekNonSpace().pos;
    const args: Operand[] = [];
    for (;;) {
      const op = this.operand();
      if (op !== undefined) args.push(op);
      const it = this.next();
      if (it.i === I.Space) continue;
      if (it.i === I.RightDelim || it.i === I.RightParen) {
        this.k--;
        break;
      }
      if (it.i === I.Pipe) break;
      this.unexpected(it, "operand");
    }
    if (args.length === 0) this.fail(start, "empty command");
    const last = args[args.length - 1]!;
    return { args, src: this.src.slice(start, last.pos + last.src.length), pos: start };
  }

  private operand(): Operand | undefined {
    const term = this.term();
    if (term === undefined) return undefined;
    if (this.peek().i !== I.Field) return term;
    const names: string[] = [];
    while (this.peek().i === I.Field) names.push(this.next().val.slice(1));
    const src = this.src.slice(term.pos, this.items[this.k - 1]!.pos + this.items[this.k - 1]!.val.length);
    switch (term.t) {
      case "field":
        return { ...term, names: [...term.names, ...names], src };
      case "variable":
        return { ...term, names: [...term.names, ...names], src };
      case "pipe":
        return { ...term, names, src };
      default:
        return this.fail(term.pos, `unexpected . after term ${JSON.stringify(term.src)}`);
    }
  }

  private term(): Operand | undefined {
    const it = this.nextNonSpace();
    const base = { src: it.val, pos: it.pos };
    switch (it.i) {
      case I.Identifier:
        if (!FUNCTION_NAMES.has(it.val)) this.fail(it.pos, `function ${JSON.stringify(it.val)} not defined`);
        return { t: "identifier", name: it.val, ...base };
      case I.Dot:
        return { t: "dot", ...base };
      case I.Keyword:
        if (it.val === "nil") return { t: "nil", ...base };
        break;
      case I.Variable:
        if (!this.vars.includes(it.val)) this.fail(it.pos, `undefined variable "${it.val}"`);
        return { t: "variable", name: it.val, names: [], ...base };
      case I.Field:
        return { t: "field", names: [it.val.slice(1)], ...base };
      case I.Bool:
        return { t: "bool", value: it.val === "true", ...base };
      case I.Number:
      case I.CharConstant:
        return numberOperand(it, this.fail);
      case I.String:
      case I.RawString:
        return { t: "string", value: stringValue(it)!, ...base };
      case I.LeftParen: {
        const pipe = this.pipeline("parenthesized pipeline", I.RightParen);
        const close = this.items[this.k - 1]!;
        return { t: "pipe", pipe, names: [], src: this.src.slice(it.pos, close.pos + 1), pos: it.pos };
      }
      default:
        break;
    }
    this.k--;
    return undefined;
  }
}

function isOperandStart(it: Item): boolean {
  if (it.i === I.Keyword) return it.val === "nil";
  return [I.Bool, I.CharConstant, I.Dot, I.Field, I.Identifier, I.Number, I.RawString, I.String, I.Variable, I.LeftParen].includes(it.i);
}

/** An item as Go's error messages show it (keywords in <>, the rest quoted, long ones cut). */
function describe(it: Item): string {
  if (it.i === I.Keyword) return `<${it.val}>`;
  if (it.val.length > 10) return `${JSON.stringify(it.val.slice(0, 10))}...`;
  return JSON.stringify(it.val);
}

/** The value of a quoted, raw or character literal (Go's strconv.Unquote). */
function stringValue(it: Item): string | undefined {
  if (it.i === I.RawString) return it.val.slice(1, -1).replace(/\r/g, "");
  if (it.i !== I.String && it.i !== I.CharConstant) return undefined;
  return unquote(it.val.slice(1, -1));
}

function unquote(body: string): string {
  return body.replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{3}|.)/g, (_m, e: string) => {
    switch (e[0]) {
      case "x":
      case "u":
      case "U":
        return String.fromCodePoint(parseInt(e.slice(1), 16));
      case "a":
        return "\x07";
      case "b":
        return "\b";
      case "f":
        return "\f";
      case "n":
        return "\n";
      case "r":
        return "\r";
      case "t":
        return "\t";
      case "v":
        return "\v";
      default:
        return /^[0-7]{3}$/.test(e) ? String.fromCharCode(parseInt(e, 8)) : e;
    }
  });
}

/** Number and character constants: Go's rules for ideal constants (int unless it has a fraction/exponent). */
function numberOperand(it: Item, fail: (pos: number, msg: string) => never): Operand {
  const base = { src: it.val, pos: it.pos };
  if (it.i === I.CharConstant) {
    const s = stringValue(it)!;
    if ([...s].length !== 1) fail(it.pos, `malformed character constant: ${it.val}`);
    return { t: "int", value: BigInt(s.codePointAt(0)!), ...base };
  }
  const text = it.val.replace(/_/g, "");
  if (text.endsWith("i")) fail(it.pos, `complex constants are not supported: ${it.val}`);
  const neg = text.startsWith("-");
  const body = text.replace(/^[+-]/, "");
  const isHex = /^0[xX]/.test(body);
  if (/^0[xXoObB]/.test(body) && !/[.pP]/.test(body)) {
    try {
      const v = BigInt(body.replace(/^0[oO]/, "0o").replace(/^0[bB]/, "0b"));
      return { t: "int", value: neg ? -v : v, ...base };
    } catch {
      return fail(it.pos, `illegal number syntax: "${it.val}"`);
    }
  }
  if (!isHex && /^[0-9]+$/.test(body)) {
    // A leading 0 is octal, as in Go.
    const v = body.length > 1 && body[0] === "0" ? BigInt(`0o${body.slice(1)}`) : BigInt(body);
    return { t: "int", value: neg ? -v : v, ...base };
  }
  const f = isHex ? Number.NaN : Number(text);
  if (!Number.isFinite(f)) fail(it.pos, `illegal number syntax: "${it.val}"`);
  return { t: "float", value: f, ...base };
}
