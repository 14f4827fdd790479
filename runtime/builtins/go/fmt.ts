// Go's fmt verbs for the Go values that reach fmt in OPA: the four kinds OPA's sprintf passes
// (int64, *big.Int, float64, string) and, for strings.render_template's printf, bools, nil, named
// integer and string types (int, json.Number) and composites: flags, width, precision, padding
// and Go's error forms (%!d(string=hi)), following Go's fmt/print.go and fmt/format.go, and
// math/big's Int.Format. The format-string parsing is in sprintf.ts. Hand-written: no JS library
// implements Go's fmt.
import { formatFloat, type FloatFormat } from "./float.js";
import { canBackquote, isPrint, quote, quoteRune, runeCount, utf8, validRune } from "./strconv.js";

/**
 * A Go value handed to fmt. `name` is the Go type's name where it is not the kind's own (a
 * template's `int` constants are int64-kind, json.Number is a string kind). A composite (slice,
 * map) is passed as its %v text: %v and %s print it, other verbs are Go's bad-verb form.
 */
export type GoArg =
  | { t: "int64"; v: bigint; name?: string }
  | { t: "bigint"; v: bigint }
  | { t: "float64"; v: number }
  | { t: "string"; v: string; name?: string }
  | { t: "bool"; v: boolean }
  | { t: "nil" }
  | { t: "composite"; name: string; text: string };

const KIND_NAMES = { int64: "int64", bigint: "*big.Int", float64: "float64", string: "string", bool: "bool", nil: "<nil>" } as const;

/** The Go type name fmt prints for %T, bad verbs and %!(EXTRA ...). */
export function goTypeName(arg: GoArg): string {
  return "name" in arg && arg.name !== undefined ? arg.name : KIND_NAMES[arg.t as keyof typeof KIND_NAMES];
}

// math/big's Int.Format: the verbs it accepts, their bases, and the '#' prefixes.
const BIG_BASES: Partial<Record<string, number>> = { b: 2, o: 8, O: 8, d: 10, s: 10, v: 10, x: 16, X: 16 };
const BIG_PREFIXES: Partial<Record<string, string>> = { b: "0b", o: "0", x: "0x", X: "0X" };

/** Formats Go values with the current verb's flags; sprintf.ts's Printer drives it. */
export class GoFormatter {
  protected out = "";
  // flags and options of the verb being formatted
  protected plus = false;
  protected minus = false;
  protected sharp = false;
  protected space = false;
  protected zero = false;
  protected plusV = false;
  protected sharpV = false;
  protected wid = 0;
  protected widPresent = false;
  protected prec = 0;
  protected precPresent = false;
  protected erroring = false;
  protected reordered = false;
  protected goodArgNum = true;

  constructor(protected readonly args: readonly GoArg[]) {}

  protected clearFlags(): void {
    this.plus = this.minus = this.sharp = this.space = this.zero = this.plusV = this.sharpV = false;
    this.widPresent = this.precPresent = false;
    this.wid = this.prec = 0;
  }

  protected printArg(arg: GoArg, verb: string): void {
    if (verb === "T") return this.fmtS(goTypeName(arg));
    if (arg.t === "nil") return verb === "v" ? this.pad("<nil>") : this.badVerb(arg, verb);
    if (verb === "p" && arg.t !== "bigint") return this.badVerb(arg, verb);
    switch (arg.t) {
      case "int64":
        return this.fmtIntegerVerb(arg, verb);
      case "float64":
        return this.fmtFloatVerb(arg, verb);
      case "string":
        return this.fmtStringVerb(arg, verb);
      case "bool":
        return verb === "t" || verb === "v" ? this.pad(String(arg.v)) : this.badVerb(arg, verb);
      case "composite":
        return verb === "v" || verb === "s" ? this.pad(arg.text) : this.badVerb(arg, verb);
      default:
        return this.fmtBig(arg, verb);
    }
  }

  private badVerb(arg: GoArg, verb: string): void {
    this.erroring = true;
    if (arg.t === "nil") this.out += `%!${verb}(<nil>)`;
    else {
      this.out += `%!${verb}(${goTypeName(arg)}=`;
      if (arg.t === "bigint") this.out += bigIntStruct(arg.v);
      else this.printArg(arg, "v");
      this.out += ")";
    }
    this.erroring = false;
  }

  // --- padding -------------------------------------------------------------------------------

  private writePadding(n: number): void {
    if (n > 0) this.out += (this.zero && !this.minus ? "0" : " ").repeat(n);
  }

  /** Pads s to the width (counted in runes), left or right. */
  private pad(s: string): void {
    if (!this.widPresent || this.wid === 0) {
      this.out += s;
      return;
    }
    const width = this.wid - runeCount(s);
    if (!this.minus) {
      this.writePadding(width);
      this.out += s;
    } else {
      this.out += s;
      this.writePadding(width);
    }
  }

  private withoutZero(f: () => void): void {
    const old = this.zero;
    this.zero = false;
    f();
    this.zero = old;
  }

  // --- integers ------------------------------------------------------------------------------

  private fmtIntegerVerb(arg: GoArg & { t: "int64" }, verb: string): void {
    const v = arg.v;
    switch (verb) {
      case "v":
      case "d":
        return this.fmtInteger(v, 10, verb, false);
      case "b":
        return this.fmtInteger(v, 2, verb, false);
      case "o":
      case "O":
        return this.fmtInteger(v, 8, verb, false);
      case "x":
        return this.fmtInteger(v, 16, verb, false);
      case "X":
        return this.fmtInteger(v, 16, verb, true);
      case "c":
        return this.pad(String.fromCodePoint(runeOf(v)));
      case "q":
        return this.pad(quoteRune(runeOf(v), this.plus));
      case "U":
        return this.fmtUnicode(v < 0n ? v + (1n << 64n) : v);
      default:
        return this.badVerb(arg, verb);
    }
  }

  private fmtInteger(v: bigint, base: number, verb: string, upper: boolean): void {
    const negative = v < 0n;
    const u = negative ? -v : v;
    let prec = 0;
    if (this.precPresent) {
      prec = this.prec;
      if (prec === 0 && u === 0n) return this.withoutZero(() => this.writePadding(this.wid));
    } else if (this.zero && !this.minus && this.widPresent) {
      prec = this.wid;
      if (negative || this.plus || this.space) prec--;
    }
    let s = u.toString(base);
    if (upper) s = s.toUpperCase();
    s = s.padStart(prec, "0");
    if (this.sharp) {
      if (base === 2) s = `0b${s}`;
      else if (base === 8 && s[0] !== "0") s = `0${s}`;
      else if (base === 16) s = `0${upper ? "X" : "x"}${s}`;
    }
    if (verb === "O") s = `0o${s}`;
    if (negative) s = `-${s}`;
    else if (this.plus) s = `+${s}`;
    else if (this.space) s = ` ${s}`;
    this.withoutZero(() => this.pad(s));
  }

  private fmtUnicode(u: bigint): void {
    let prec = 4;
    if (this.precPresent && this.prec > 4) prec = this.prec;
    let s = `U+${u.toString(16).toUpperCase().padStart(prec, "0")}`;
    if (this.sharp && u <= 0x10ffffn && isPrint(Number(u))) s += ` '${String.fromCodePoint(Number(u))}'`;
    this.withoutZero(() => this.pad(s));
  }

  // --- big integers (math/big's Int.Format) --------------------------------------------------------

  private fmtBig(arg: GoArg & { t: "bigint" }, verb: string): void {
    const base = BIG_BASES[verb];
    if (base === undefined) {
      if (verb === "w" || this.erroring) return this.badVerb(arg, verb);
      if (verb === "p") return this.pad(`%!p(*big.Int=${arg.v})`); // Go prints the pointer's address
      this.out += `%!${verb}(big.Int=${arg.v})`;
      return;
    }
    const x = arg.v;
    const sign = x < 0n ? "-" : this.plus || this.plusV ? "+" : this.space ? " " : "";
    let prefix = "";
    if (this.sharp || this.sharpV) prefix = BIG_PREFIXES[verb] ?? "";
    if (verb === "O") prefix = "0o";
    let digits = (x < 0n ? -x : x).toString(base);
    if (verb === "X") digits = digits.toUpperCase();
    let zeros = 0;
    if (this.precPresent) {
      if (digits.length < this.prec) zeros = this.prec - digits.length;
      else if (digits === "0" && this.prec === 0) return;
    }
    let left = 0;
    let right = 0;
    const length = sign.length + prefix.length + zeros + digits.length;
    if (this.widPresent && length < this.wid) {
      const d = this.wid - length;
      if (this.minus) right = d;
      else if (this.zero && !this.precPresent) zeros = d;
      else left = d;
    }
    this.out += " ".repeat(left) + sign + prefix + "0".repeat(zeros) + digits + " ".repeat(right);
  }

  // --- floats --------------------------------------------------------------------------------

  private fmtFloatVerb(arg: GoArg & { t: "float64" }, verb: string): void {
    switch (verb) {
      case "v":
        return this.fmtFloat(arg.v, "g", -1);
      case "b":
      case "g":
      case "G":
      case "x":
      case "X":
        return this.fmtFloat(arg.v, verb, -1);
      case "f":
      case "e":
      case "E":
        return this.fmtFloat(arg.v, verb, 6);
      case "F":
        return this.fmtFloat(arg.v, "f", 6);
      default:
        return this.badVerb(arg, verb);
    }
  }

  private fmtFloat(v: number, verb: FloatFormat, prec: number): void {
    if (this.precPresent) prec = this.prec;
    let num = formatFloat(v, verb, prec);
    if (num[0] !== "-" && num[0] !== "+") num = `+${num}`;
    if (this.space && num[0] === "+" && !this.plus) num = ` ${num.slice(1)}`;
    if (num[1] === "I" || num[1] === "N") {
      if (num[1] === "N" && !this.space && !this.plus) num = num.slice(1);
      return this.withoutZero(() => this.pad(num));
    }
    if (this.sharp && verb !== "b") num = sharpFloat(num, verb, prec);
    if (this.plus || num[0] !== "+") {
      if (this.zero && !this.minus && this.widPresent && this.wid > num.length) {
        this.out += num[0];
        this.writePadding(this.wid - num.length);
        this.out += num.slice(1);
        return;
      }
      return this.pad(num);
    }
    this.pad(num.slice(1));
  }

  // --- strings -------------------------------------------------------------------------------

  private fmtStringVerb(arg: GoArg & { t: "string" }, verb: string): void {
    switch (verb) {
      case "v":
        return this.sharpV ? this.fmtQ(arg.v) : this.fmtS(arg.v);
      case "s":
        return this.fmtS(arg.v);
      case "x":
        return this.fmtSx(arg.v, false);
      case "X":
        return this.fmtSx(arg.v, true);
      case "q":
        return this.fmtQ(arg.v);
      default:
        return this.badVerb(arg, verb);
    }
  }

  private truncate(s: string): string {
    if (!this.precPresent) return s;
    let n = 0;
    let i = 0;
    for (const ch of s) {
      if (n++ >= this.prec) return s.slice(0, i);
      i += ch.length;
    }
    return s;
  }

  private fmtS(s: string): void {
    this.pad(this.truncate(s));
  }

  private fmtQ(s: string): void {
    s = this.truncate(s);
    if (this.sharp && canBackquote(s)) return this.pad(`\`${s}\``);
    this.pad(quote(s, this.plus));
  }

  private fmtSx(s: string, upper: boolean): void {
    const bytes = utf8(s);
    let length = bytes.length;
    if (this.precPresent && this.prec < length) length = this.prec;
    let width = 2 * length;
    if (width > 0) {
      if (this.space) {
        if (this.sharp) width *= 2;
        width += length - 1;
      } else if (this.sharp) width += 2;
    } else {
      if (this.widPresent) this.writePadding(this.wid);
      return;
    }
    if (this.widPresent && this.wid > width && !this.minus) this.writePadding(this.wid - width);
    const x = upper ? "0X" : "0x";
    let buf = this.sharp ? x : "";
    for (let i = 0; i < length; i++) {
      if (this.space && i > 0) buf += this.sharp ? ` ${x}` : " ";
      const h = bytes[i]!.toString(16).padStart(2, "0");
      buf += upper ? h.toUpperCase() : h;
    }
    this.out += buf;
    if (this.widPresent && this.wid > width && this.minus) this.writePadding(this.wid - width);
  }
}

/** The rune an int64 stands for in %c and %q (invalid ones are U+FFFD). */
function runeOf(v: bigint): number {
  if (v < 0n || v > 0x10ffffn) return 0xfffd;
  const r = Number(v);
  return validRune(r) ? r : 0xfffd;
}

/** The '#' flag on floats: keep a decimal point and, for %g/%x, trailing zeros. */
function sharpFloat(num: string, verb: string, prec: number): string {
  let digits = 0;
  if (verb === "v" || verb === "g" || verb === "G" || verb === "x") digits = prec === -1 ? 6 : prec;
  let tail = "";
  let body = num;
  let hasPoint = false;
  let sawNonzero = false;
  for (let i = 1; i < body.length; i++) {
    const c = body[i]!;
    if (c === ".") hasPoint = true;
    else if (c === "p" || c === "P" || ((c === "e" || c === "E") && verb !== "x" && verb !== "X")) {
      tail = body.slice(i);
      body = body.slice(0, i);
      break;
    } else {
      if (c !== "0") sawNonzero = true;
      if (sawNonzero) digits--;
    }
  }
  if (!hasPoint) {
    if (body.length === 2 && body[1] === "0") digits--;
    body += ".";
  }
  if (digits > 0) body += "0".repeat(digits);
  return body + tail;
}

/** How fmt shows a *big.Int it cannot format with a verb: the struct, `&{neg [words]}`. */
function bigIntStruct(v: bigint): string {
  const words: string[] = [];
  for (let a = v < 0n ? -v : v; a > 0n; a >>= 64n) words.push((a & ((1n << 64n) - 1n)).toString());
  return `&{${v < 0n} [${words.join(" ")}]}`;
}
