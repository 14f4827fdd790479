// yaml.marshal's writer: go-yaml v2's emitter (a port of libyaml) for the values JSON can hold,
// reproducing its layout decisions: block mappings and sequences (a sequence under a mapping key
// is not indented), `[]`/`{}` for empty collections, keys as simple keys up to 128 bytes and as
// `? key` otherwise, scalar styles chosen by analyzeScalar, plain and quoted scalars folded at
// the first space past column 80, literal blocks with chomping hints. Collections are written
// from a stack of pending steps rather than by recursion, so any nesting depth can be written.
import { numberText, type Num } from "../../value/number.js";
import { RegoSet } from "../../value/set.js";
import { BigNum } from "../../value/number.js";
import type { Value } from "../../value/value.js";
import { formatFloat } from "./float.js";
import { jsonKey } from "./json.js";
import { runeCount, runes, utf8 } from "./strconv.js";
import { analyzeScalar, resolvePlain, yamlKeyLess, yamlPrintable } from "./yaml.js";
import { objectEntries, isObject } from "../../value/object.js";

type Style = "plain" | "single" | "double" | "literal";

const BEST_WIDTH = 80;
const BEST_INDENT = 2;
const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;

const isBreak = (r: number | undefined) => r === 0x0a || r === 0x0d || r === 0x85 || r === 0x2028 || r === 0x2029;

const ESCAPES = new Map<number, string>([
  [0x00, "0"],
  [0x07, "a"],
  [0x08, "b"],
  [0x09, "t"],
  [0x0a, "n"],
  [0x0b, "v"],
  [0x0c, "f"],
  [0x0d, "r"],
  [0x1b, "e"],
  [0x22, '"'],
  [0x5c, "\\"],
  [0x85, "N"],
  [0xa0, "_"],
  [0x2028, "L"],
  [0x2029, "P"],
]);

/** A scalar as go-yaml's encoder holds it: its text and the style it asks for. */
function scalarOf(v: Value): { text: string; style: Style } {
  if (v === null) return { text: "null", style: "plain" };
  if (typeof v === "boolean") return { text: v ? "true" : "false", style: "plain" };
  if (typeof v === "number" || v instanceof BigNum) return { text: numberScalar(v), style: "plain" };
  const s = v as string;
  if (s.includes("\n")) return { text: s, style: "literal" };
  const plain = resolvePlain(s).t === "str" && !BASE60_FLOAT.test(s);
  return { text: s, style: plain ? "plain" : "double" };
}

/** A number goes through JSON text and go-yaml's resolver: an int64/uint64, or a float64. */
function numberScalar(n: Num): string {
  const r = resolvePlain(numberText(n));
  if (r.t === "int") return r.v.toString();
  if (r.t === "float") return formatFloat(r.v, "g", -1);
  return numberText(n);
}

class Emitter {
  out = "";
  /** Steps still to run, the next one last (a collection pushes one per member). */
  readonly steps: Array<() => void> = [];
  private column = 0;
  private indent = -1;
  private readonly indents: number[] = [];
  private whitespace = true;
  private indention = true;

  private write(s: string): void {
    this.out += s;
    this.column += runeCount(s);
  }

  private putBreak(): void {
    this.out += "\n";
    this.column = 0;
  }

  writeIndent(): void {
    const indent = Math.max(this.indent, 0);
    if (!this.indention || this.column > indent || (this.column === indent && !this.whitespace)) this.putBreak();
    while (this.column < indent) this.write(" ");
    this.whitespace = true;
    this.indention = true;
  }

  private indicator(s: string, needWhitespace: boolean, isWhitespace: boolean, isIndention: boolean): void {
    if (needWhitespace && !this.whitespace) this.write(" ");
    this.write(s);
    this.whitespace = isWhitespace;
    this.indention = this.indention && isIndention;
  }

  private increaseIndent(flow: boolean, indentless: boolean): void {
    this.indents.push(this.indent);
    if (this.indent < 0) this.indent = flow ? BEST_INDENT : 0;
    else if (!indentless) this.indent += BEST_INDENT;
  }

  private popIndent(): void {
    this.indent = this.indents.pop()!;
  }

  /** Writes a scalar, or starts a collection whose members are pushed onto `steps`. */
  node(v: Value, mappingContext: boolean, simpleKey: boolean): void {
    if (Array.isArray(v) || v instanceof RegoSet) return this.sequence(Array.isArray(v) ? v : v.sorted(), mappingContext);
    if (isObject(v)) return this.mapping(v);
    this.scalar(v, simpleKey);
  }

  private sequence(items: readonly Value[], mappingContext: boolean): void {
    if (items.length === 0) {
      this.indicator("[", true, true, false);
      this.indicator("]", false, false, false);
      return;
    }
    this.increaseIndent(false, mappingContext && !this.indention);
    this.steps.push(() => this.popIndent());
    for (let i = items.length - 1; i >= 0; i--) {
      const item = items[i]!;
      this.steps.push(() => {
        this.writeIndent();
        this.indicator("-", true, false, true);
        this.node(item, false, false);
      });
    }
  }

  private mapping(o: Parameters<typeof objectEntries>[0]): void {
    const entries = objectEntries(o).map(([k, x]) => [jsonKey(k), x] as [string, Value]);
    if (entries.length === 0) {
      this.indicator("{", true, true, false);
      this.indicator("}", false, false, false);
      return;
    }
    entries.sort((a, b) => (yamlKeyLess(a[0], b[0]) ? -1 : yamlKeyLess(b[0], a[0]) ? 1 : 0));
    this.increaseIndent(false, false);
    this.steps.push(() => this.popIndent());
    for (let i = entries.length - 1; i >= 0; i--) {
      const [k, x] = entries[i]!;
      this.steps.push(() => {
        const simple = utf8(k).length <= 128 && !analyzeScalar(k).multiline;
        this.writeIndent();
        if (simple) {
          this.scalar(k, true);
          this.indicator(":", false, false, false);
        } else {
          this.indicator("?", true, false, true);
          this.scalar(k, false);
          this.writeIndent();
          this.indicator(":", true, false, true);
        }
        this.node(x, true, false);
      });
    }
  }

  private scalar(v: Value, simpleKey: boolean): void {
    const { text, style: wanted } = scalarOf(v);
    const a = analyzeScalar(text);
    let style = wanted;
    if (simpleKey && a.multiline) style = "double";
    if (style === "plain") {
      if (!a.blockPlain || (text === "" && simpleKey)) style = "single";
    }
    if (style === "single" && !a.singleQuoted) style = "double";
    if (style === "literal" && (!a.block || simpleKey)) style = "double";
    this.increaseIndent(true, false);
    const breaks = !simpleKey;
    if (style === "plain") this.plain(text, breaks);
    else if (style === "single") this.singleQuoted(text, breaks);
    else if (style === "double") this.doubleQuoted(text, breaks);
    else this.literal(text);
    this.popIndent();
  }

  private plain(value: string, allowBreaks: boolean): void {
    if (!this.whitespace) this.write(" ");
    const rs = runes(value);
    let spaces = false;
    for (let i = 0; i < rs.length; i++) {
      const ch = String.fromCodePoint(rs[i]!);
      if (rs[i] === 0x20) {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && rs[i + 1] !== 0x20) this.writeIndent();
        else this.write(ch);
        spaces = true;
      } else {
        this.write(ch);
        this.indention = false;
        spaces = false;
      }
    }
    this.whitespace = false;
    this.indention = false;
  }

  private singleQuoted(value: string, allowBreaks: boolean): void {
    this.indicator("'", true, false, false);
    const rs = runes(value);
    let spaces = false;
    for (let i = 0; i < rs.length; i++) {
      const r = rs[i]!;
      if (r === 0x20) {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && i > 0 && i < rs.length - 1 && rs[i + 1] !== 0x20) this.writeIndent();
        else this.write(" ");
        spaces = true;
      } else {
        if (r === 0x27) this.write("'");
        this.write(String.fromCodePoint(r));
        this.indention = false;
        spaces = false;
      }
    }
    this.indicator("'", false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  private doubleQuoted(value: string, allowBreaks: boolean): void {
    this.indicator('"', true, false, false);
    const rs = runes(value);
    let spaces = false;
    for (let i = 0; i < rs.length; i++) {
      const r = rs[i]!;
      if (!yamlPrintable(r) || r === 0xfeff || isBreak(r) || r === 0x22 || r === 0x5c) {
        const short = ESCAPES.get(r);
        if (short !== undefined) this.write(`\\${short}`);
        else {
          const [c, w] = r <= 0xff ? ["x", 2] : r <= 0xffff ? ["u", 4] : ["U", 8];
          this.write(`\\${c}${r.toString(16).toUpperCase().padStart(w as number, "0")}`);
        }
        spaces = false;
      } else if (r === 0x20) {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && i > 0 && i < rs.length - 1) {
          this.writeIndent();
          if (rs[i + 1] === 0x20) this.write("\\");
        } else this.write(" ");
        spaces = true;
      } else {
        this.write(String.fromCodePoint(r));
        spaces = false;
      }
    }
    this.indicator('"', false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  private literal(value: string): void {
    this.indicator("|", true, false, false);
    const rs = runes(value);
    if (rs[0] === 0x20 || isBreak(rs[0])) this.indicator(String(BEST_INDENT), false, false, false);
    const last = rs.length - 1;
    let chomp = "";
    if (!isBreak(rs[last])) chomp = "-";
    else if (last === 0 || isBreak(rs[last - 1])) chomp = "+";
    if (chomp) this.indicator(chomp, false, false, false);
    this.putBreak();
    this.indention = true;
    this.whitespace = true;
    let breaks = true;
    for (const r of rs) {
      if (isBreak(r)) {
        if (r === 0x0a) this.putBreak();
        else {
          this.out += String.fromCodePoint(r);
          this.column = 0;
        }
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        this.write(String.fromCodePoint(r));
        this.indention = false;
        breaks = false;
      }
    }
  }
}

/** yaml.marshal's text for a value (go-yaml v2's Marshal of the value's JSON form). */
export function yamlMarshal(v: Value): string {
  const e = new Emitter();
  e.node(v, false, false);
  while (e.steps.length > 0) e.steps.pop()!();
  e.writeIndent();
  return e.out;
}
