// Generated code is a value, never a bare string (ajv's habit). `Code` is the only type that holds
// raw TypeScript text, and raw text enters it only from this compiler's own templates:
//   - `_` tagged template: interpolated Code/Name pass through; a plain string always comes out as
//     a quoted literal (through `lit`); numbers, booleans and null as their literal text.
//   - `lit(v)`: THE literal function — JSON.stringify plus escaping of U+2028/U+2029. Every string,
//     key and name that comes from a policy or a plan reaches the output through it (or as a
//     `Name` allocated by names.ts). Nothing is ever spliced raw.
//   - `comment(text)`: Rego/plan text inside a comment, with `*/`, line breaks and other
//     troublesome characters neutralised.
// Function bodies (statements, blocks, labels, loops) are written into `Lines` and rendered with
// indentation (TypeScript) or without (JavaScript).

export class Code {
  /** @internal Raw text; build Code only through `_`, `lit`, `comment`, `join` and `Name`. */
  readonly text: string;
  protected constructor(text: string) {
    this.text = text;
  }
  toString(): string {
    return this.text;
  }
  /** @internal For this file and names.ts only. */
  static raw(text: string): Code {
    return new Code(text);
  }
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const PREFIX = /^[a-z]{1,2}$/;
/** A cache (module state on purpose): the prefixes `numbered` has checked (a handful; names are
 * made by the hundred thousand). */
const checkedPrefixes = new Set<string>();
/** Only this file holds it: a Name built with it skips the identifier test (`numbered`). */
const BUILT_HERE = Symbol("numbered");

/** A validated identifier, allocated by a Scope (names.ts). */
export class Name extends Code {
  constructor(text: string, builtHere?: typeof BUILT_HERE) {
    if (builtHere !== BUILT_HERE && !IDENTIFIER.test(text)) throw new Error(`codegen: ${JSON.stringify(text)} is not an identifier`);
    super(text);
  }

  /** `prefix` followed by `n` (`l3`, `b0`): 1-2 lowercase letters and digits, an identifier by
   * construction, so only the prefix is checked (once). */
  static numbered(prefix: string, n: number): Name {
    if (!checkedPrefixes.has(prefix)) {
      if (!PREFIX.test(prefix)) throw new Error(`codegen: name prefix ${JSON.stringify(prefix)} must be 1-2 lowercase letters`);
      checkedPrefixes.add(prefix);
    }
    if (!Number.isSafeInteger(n) || n < 0) throw new Error(`codegen: name number ${n} is not a natural number`);
    return new Name(`${prefix}${n}`, BUILT_HERE);
  }

  /** The name of a parameter the function never reads: `_` + `name` (TypeScript's
   * noUnusedParameters ignores such names; the identifier function never starts one with `_`
   * followed by a letter, `_`, or `$`). */
  static unused(name: Name): Name {
    return new Name(`_${name.text}`, BUILT_HERE);
  }
}

export type CodeArg = Code | string | number | boolean | null;

/** The one literal function: a JS/TS literal of a string, finite number, boolean or null. */
export function lit(v: string | number | boolean | null): Code {
  return Code.raw(literalText(v));
}

/** lit's text (for this file: no Code made for a literal spliced into a larger text). */
function literalText(v: string | number | boolean | null): string {
  if (typeof v === "number") {
    if (!Number.isFinite(v)) throw new Error(`codegen: cannot write the number ${v} as a literal`);
    return Object.is(v, -0) ? "0" : String(v);
  }
  if (typeof v === "string" && isPlainText(v)) return `"${v}"`;
  return JSON.stringify(v).replace(/[\u2028\u2029]/g, (c) => (c === "\u2028" ? "\\u2028" : "\\u2029"));
}

/** Printable ASCII without `"` and `\`: what JSON.stringify would only put between quotes (most
 * strings of a plan — keys, names, file names; lit runs hundreds of thousands of times). */
function isPlainText(v: string): boolean {
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return false;
  }
  return true;
}

function argText(a: CodeArg): string {
  if (a instanceof Code) return a.text;
  return literalText(a);
}

/** Tagged template: `_\`${name} = ${value};\`` — strings become literals, Code passes through. */
export function _(strings: TemplateStringsArray, ...args: CodeArg[]): Code {
  let s = strings[0]!;
  for (let i = 0; i < args.length; i++) s += argText(args[i]!) + strings[i + 1]!;
  return Code.raw(s);
}

/** A template literal: its strings escaped as `lit` escapes them (and `` ` `` and `${` besides),
 * its Code parts as substitutions: `` `container ${name} has no limit` ``. */
export function template(parts: readonly (string | Code)[]): Code {
  let s = "`";
  for (const p of parts) {
    if (p instanceof Code) s += "${" + p.text + "}";
    else if (p !== "") s += literalText(p).slice(1, -1).replace(/`|\$\{/g, "\\$&");
  }
  return Code.raw(s + "`");
}

/** join's usual separator (made once: a default parameter is evaluated at every call). */
const COMMA = Code.raw(", ");

export function join(parts: readonly Code[], sep: Code = COMMA): Code {
  return Code.raw(parts.map((p) => p.text).join(sep.text));
}

/** A block comment holding arbitrary text safely: no `*\/`, no line breaks, printable only. */
export function comment(text: string): Code {
  return Code.raw(`/* ${commentText(text)} */`);
}

/** A line comment holding arbitrary text safely. */
export function lineComment(text: string): Code {
  return Code.raw(`// ${commentText(text)}`);
}

function commentText(text: string): string {
  if (isCommentSafe(text)) return text;
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        out += text[i]! + text[i + 1]!;
        i++;
        continue;
      }
    }
    const ch = text[i]!;
    if (c < 0x20 || c === 0x7f || (c >= 0x80 && c < 0xa0) || c === 0x2028 || c === 0x2029 || (c >= 0xd800 && c <= 0xdfff)) {
      out += `\\u${c.toString(16).padStart(4, "0")}`;
    } else if (ch === "*" && text[i + 1] === "/") {
      out += "*\\";
    } else {
      out += ch;
    }
  }
  return out;
}

/** Printable ASCII without `*\/`: what commentText leaves as it is (most text: a func's name). */
function isCommentSafe(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || (c === 0x2a && text.charCodeAt(i + 1) === 0x2f)) return false;
  }
  return true;
}

// ---- statements ----

/** A jump target: a labelled statement, emitted with its label only when something jumps to it. */
export class Label {
  used = false;
  constructor(readonly name: Name) {}
}

/** A (possibly labelled) braced construct opened in a `Lines` body; its statements are the pieces
 * after it. */
interface Braced {
  kind: "braced";
  /** Text before `{` (e.g. `while (it.next())`, `try`); empty for a plain block. */
  head: Code | null;
  label: Label | null;
  /** Text after the closing `}` on the same line (e.g. ` finally { ... }`). */
  tail?: Code;
  /** Written on one line (`head { statement }`) when its body is one line. */
  inline?: boolean;
}

/** Indentation by depth, shared by every line at that depth. */
const pads: string[] = [""];

function pad(depth: number): string {
  return (pads[depth] ??= "  ".repeat(depth));
}

// ---- a function body written straight into one array ----

/** Where a line's indentation goes (an indented body only): its depth is known when rendering. */
const LINE_START = { kind: "line" } as const;
/** Where a block opened with `Lines.open` ends (an indented body only). */
const BLOCK_END = { kind: "end" } as const;

/** A piece of a `Lines` body: text, a block, or where a line or block starts or ends. */
const FREE = Symbol("free");
/** PieceBuffer's label openings (see FREE). */
const OPENINGS = Symbol("openings");

type Piece = string | Braced | typeof LINE_START | typeof BLOCK_END;

/**
 * A function body as the pieces of its text, in order: the statement emitters append to it instead
 * of building a `Code` per statement and a tree per block. Raw text gets in only from this file:
 * the template pieces of `line`, `Code`/`Name` text, and literals through `lit`. Blocks are opened
 * and closed around their statements; a block is written with its label and braces only when it has
 * a head or a tail or something jumps to it (a plain block is only its statements). Everything that
 * jumps to a block is inside it, so that is known when it closes: without indentation the block's
 * text is put in then; with it, when rendering (a line's depth depends on the blocks around it).
 */
export class Lines {
  private readonly pieces: Piece[];
  /** Whether `pieces` is the buffer's, to go back to it. */
  private readonly borrowed: boolean;
  /** How many of `pieces` are this body's (the array may be a lent one, longer). */
  private n = 0;
  /** Without indentation: where each open block's opening text goes, innermost last. */
  private readonly opened: number[] = [];

  /** `indented`: lines get two spaces per level (TypeScript for people); else none. `buffer`:
   * where to borrow the pieces array from, if it is free. */
  constructor(
    readonly indented: boolean,
    private readonly buffer?: PieceBuffer,
  ) {
    const lent = buffer?.[FREE] ?? null;
    this.borrowed = lent !== null;
    if (lent !== null) buffer![FREE] = null;
    this.pieces = lent ?? [];
  }

  private put(x: Piece): void {
    this.pieces[this.n++] = x;
  }

  /** A statement from the template (as `_` writes it; a list of Code is written as `join` would
   * write it, with ", " between); false: control may go on after it. */
  line(strings: TemplateStringsArray, ...args: Array<CodeArg | readonly Code[]>): false {
    if (this.indented) this.put(LINE_START);
    // (Empty template pieces are left out: every piece costs a slot here and one in the join.)
    if (strings[0] !== "") this.put(strings[0]!);
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      if (Array.isArray(a)) {
        for (let j = 0; j < a.length; j++) {
          if (j > 0) this.put(", ");
          this.put(a[j]!.text);
        }
      } else this.put(argText(a as CodeArg));
      if (strings[i + 1] !== "") this.put(strings[i + 1]!);
    }
    this.put("\n");
    return false;
  }

  /** A statement already made; false (an empty one writes nothing). */
  code(statement: Code): false {
    if (statement.text !== "") {
      if (this.indented) this.put(LINE_START);
      this.put(statement.text);
      this.put("\n");
    }
    return false;
  }

  /** `code` for a statement control never passes: true. */
  codeLast(statement: Code): true {
    this.code(statement);
    return true;
  }

  /** Holds the place of a statement known only later (`fill`). */
  reserve(): number {
    const at = this.n;
    this.put("");
    this.put("");
    this.put("");
    return at;
  }

  /** Puts `statement` where `reserve` held a place (nothing, if it is empty). */
  fill(at: number, statement: Code): void {
    if (statement.text === "") return;
    if (this.indented) this.pieces[at] = LINE_START;
    this.pieces[at + 1] = statement.text;
    this.pieces[at + 2] = "\n";
  }

  /** Opens a block (`label: head { ... }tail`); its statements follow, then `close`. */
  open(head: Code | null, label: Label | null, tail?: Code): void {
    const b: Braced = tail === undefined ? { kind: "braced", head, label } : { kind: "braced", head, label, tail };
    if (!this.indented) this.opened.push(this.n);
    this.put(b);
  }

  /** Opens a block with a head, written on one line (`label: head { statement }`) if its body is
   * one line (a comment excepted); then `close`. */
  openInline(head: Code, label: Label | null): void {
    if (!this.indented) this.opened.push(this.n);
    this.put({ kind: "braced", head, label, inline: true });
  }

  close(): void {
    if (this.indented) {
      this.put(BLOCK_END);
      return;
    }
    const p = this.pieces;
    const at = this.opened.pop()!;
    const b = p[at] as Braced;
    if (b.inline && oneLine(p, at + 1, this.n) === this.n - 1) {
      p[at] = `${openingText(b, "").slice(0, -1)} `;
      p[this.n - 1] = " }\n";
    } else if (isShown(b)) {
      p[at] = b.head === null && b.tail === undefined && this.buffer ? this.buffer.labelOpening(b.label!.name) : openingText(b, "");
      this.put(b.tail ? `}${b.tail.text}\n` : "}\n");
    } else p[at] = "";
  }

  /** The text, starting at `depth` (ignored when not indented), without the last line break.
   * Once only: the pieces are replaced by their text on the way, and a lent array goes back. */
  render(depth = 0): string {
    const p = this.pieces;
    const n = this.n;
    if (this.opened.length > 0) throw new Error("codegen: a block was opened and never closed");
    if (this.indented) {
      // Each block's braces decided in order (a stack of the open blocks, null for one written as
      // its statements only), pieces replaced in place.
      const open: Array<Braced | null> = [];
      let d = depth;
      let end: number;
      for (let i = 0; i < n; i++) {
        const x = p[i]!;
        if (typeof x === "string") continue;
        if (x.kind === "line") p[i] = pad(d);
        else if (x.kind === "end") {
          const b = open.pop();
          if (b) {
            d--;
            p[i] = `${pad(d)}}${b.tail ? b.tail.text : ""}\n`;
          } else p[i] = "";
        } else if (x.inline && p[i + 1] === LINE_START && (end = oneLine(p, i + 2, n)) >= 0 && p[end + 1] === BLOCK_END) {
          // One line: `head { statement }`; its line start and block end write nothing.
          p[i] = `${openingText(x, pad(d)).slice(0, -1)} `;
          p[i + 1] = "";
          p[end] = " }\n";
          p[end + 1] = "";
        } else if (isShown(x)) {
          open.push(x);
          p[i] = openingText(x, pad(d));
          d++;
        } else {
          open.push(null);
          p[i] = "";
        }
      }
    }
    const text = (p.length === n ? p : p.slice(0, n)).join("").slice(0, -1);
    if (this.borrowed) {
      // Back to the buffer, emptied of this body's text (a kept reference would keep it alive).
      p.fill("", 0, n);
      this.buffer![FREE] = p;
    }
    this.n = 0;
    return text;
  }
}

/** One pieces array for the bodies of a module, lent to one `Lines` at a time (functions are
 * mostly written one after another): a body then costs no array growth, only its own text. */
export class PieceBuffer {
  /** The array, when no Lines has it (a key only this file has: no text gets in from outside). */
  [FREE]: Piece[] | null = [];
  /** `label: {` and a line break, by label name (a key only this file has, as FREE). */
  private readonly [OPENINGS] = new Map<Name, string>();

  /** The opening of a labelled block without head, made once per label name: functions number
   * their labels alike (one `b0` Name for all). */
  labelOpening(name: Name): string {
    let text = this[OPENINGS].get(name);
    if (text === undefined) this[OPENINGS].set(name, (text = `${name.text}: {\n`));
    return text;
  }
}

/** Where the line of text pieces from `from` ends (its `\n` piece), if `from` starts one and it is
 * not a comment; else -1. */
function oneLine(p: readonly Piece[], from: number, n: number): number {
  const first = p[from];
  if (typeof first !== "string" || first.startsWith("//")) return -1;
  for (let i = from; i < n; i++) {
    const x = p[i];
    if (typeof x !== "string") return -1;
    if (x.includes("\n")) return x === "\n" ? i : -1;
  }
  return -1;
}

/** `label: head {` and a line break, after `indent`. */
function openingText(b: Braced, indent: string): string {
  return `${indent}${b.label?.used ? `${b.label.name.text}: ` : ""}${b.head ? `${b.head.text} ` : ""}{\n`;
}

/** Whether a block is written as such: a plain block nothing jumps to is only its statements. */
function isShown(n: Braced): boolean {
  return !(n.head === null && (n.label === null || !n.label.used) && n.tail === undefined);
}
