// sprintf: Go's fmt.Sprintf over the arguments OPA hands it. OPA converts each array element to a
// Go value first: an integer number (no '.', 'e' or 'E' in its text) is an int64 when it fits and a
// *big.Int otherwise, a number with a fraction or exponent a float64 (or its text when no float64
// holds it, e.g. 2e308), a string a Go string, and anything else the string of its Rego term text
// (`[1, "a"]`, `{"k": 2}`, `set()`). Then Go's verbs apply: %v %d %s %q %x %X %o %O %b %c %U %e
// %E %f %F %g %G %t %T %%, flags `+ - # 0 space`, width, precision, `*` and `[n]` argument indexes,
// and Go's error texts (%!d(string=hi), %!s(MISSING), %!(EXTRA int64=1), %!(BADINDEX), %!(NOVERB)).
// Hand-written: Go's fmt has no JS equivalent; this follows Go's fmt/print.go and fmt/format.go.
import { BigNum, numberText, toDouble, type Num } from "../../value/number.js";
import type { Value } from "../../value/value.js";
import { INT64_MAX, INT64_MIN } from "../args.js";
import { GoFormatter, goTypeName, type GoArg } from "./fmt.js";
import { termString } from "../termString.js";

export type { GoArg };


/** The Go value OPA passes to fmt for one element of sprintf's array operand. */
export function goArg(v: Value): GoArg {
  if (typeof v === "string") return { t: "string", v };
  if (typeof v === "number" || v instanceof BigNum) return numberArg(v);
  return { t: "string", v: termString(v) };
}

function numberArg(n: Num): GoArg {
  if (typeof n === "number" && !Number.isInteger(n)) return { t: "float64", v: n };
  const text = numberText(n);
  if (/[.eE]/.test(text)) {
    const d = toDouble(n);
    return Number.isFinite(d) ? { t: "float64", v: d } : { t: "string", v: text };
  }
  const i = BigInt(text);
  return i >= INT64_MIN && i <= INT64_MAX ? { t: "int64", v: i } : { t: "bigint", v: i };
}

/** Go's fmt.Sprintf(format, args...). */
export function goSprintf(format: string, args: readonly GoArg[]): string {
  return new Printer(args).printf(format);
}

const TOO_LARGE = 1e6;

/** The format-string side of fmt.Sprintf: flags, width, precision, argument indexes, verbs. */
class Printer extends GoFormatter {
  printf(format: string): string {
    const a = this.args;
    const end = format.length;
    let argNum = 0;
    let afterIndex = false;
    let i = 0;
    while (i < end) {
      this.goodArgNum = true;
      const last = i;
      while (i < end && format[i] !== "%") i++;
      if (i > last) this.out += format.slice(last, i);
      if (i >= end) break;
      i++; // the '%'
      this.clearFlags();
      flags: for (; i < end; i++) {
        switch (format[i]) {
          case "#":
            this.sharp = true;
            break;
          case "0":
            this.zero = true;
            break;
          case "+":
            this.plus = true;
            break;
          case "-":
            this.minus = true;
            break;
          case " ":
            this.space = true;
            break;
          default:
            break flags;
        }
      }
      [argNum, i, afterIndex] = this.argNumber(argNum, format, i, a.length);
      if (i < end && format[i] === "*") {
        i++;
        [this.wid, this.widPresent, argNum] = this.intFromArg(argNum);
        if (!this.widPresent) this.out += "%!(BADWIDTH)";
        if (this.wid < 0) {
          this.wid = -this.wid;
          this.minus = true;
          this.zero = false;
        }
        afterIndex = false;
      } else {
        [this.wid, this.widPresent, i] = parseNum(format, i, end);
        if (afterIndex && this.widPresent) this.goodArgNum = false;
      }
      if (i + 1 < end && format[i] === ".") {
        i++;
        if (afterIndex) this.goodArgNum = false;
        [argNum, i, afterIndex] = this.argNumber(argNum, format, i, a.length);
        if (i < end && format[i] === "*") {
          i++;
          [this.prec, this.precPresent, argNum] = this.intFromArg(argNum);
          if (this.prec < 0) {
            this.prec = 0;
            this.precPresent = false;
          }
          if (!this.precPresent) this.out += "%!(BADPREC)";
          afterIndex = false;
        } else {
          [this.prec, this.precPresent, i] = parseNum(format, i, end);
          if (!this.precPresent) {
            this.prec = 0;
            this.precPresent = true;
          }
        }
      }
      if (!afterIndex) [argNum, i, afterIndex] = this.argNumber(argNum, format, i, a.length);
      if (i >= end) {
        this.out += "%!(NOVERB)";
        break;
      }
      const verb = String.fromCodePoint(format.codePointAt(i)!);
      i += verb.length;
      if (verb === "%") this.out += "%";
      else if (!this.goodArgNum) this.out += `%!${verb}(BADINDEX)`;
      else if (argNum >= a.length) this.out += `%!${verb}(MISSING)`;
      else {
        if (verb === "v" || verb === "w") {
          this.sharpV = this.sharp;
          this.sharp = false;
          this.plusV = this.plus;
          this.plus = false;
        }
        this.printArg(a[argNum]!, verb);
        argNum++;
      }
    }
    if (!this.reordered && argNum < a.length) {
      this.clearFlags();
      this.out += "%!(EXTRA ";
      a.slice(argNum).forEach((arg, k) => {
        if (k > 0) this.out += ", ";
        this.out += `${goTypeName(arg)}=`;
        this.printArg(arg, "v");
      });
      this.out += ")";
    }
    return this.out;
  }

  private argNumber(argNum: number, format: string, i: number, numArgs: number): [number, number, boolean] {
    if (i >= format.length || format[i] !== "[") return [argNum, i, false];
    this.reordered = true;
    const [index, wid, ok] = parseArgNumber(format.slice(i));
    if (ok && index >= 0 && index < numArgs) return [index, i + wid, true];
    this.goodArgNum = false;
    return [argNum, i + wid, ok];
  }

  private intFromArg(argNum: number): [number, boolean, number] {
    if (argNum >= this.args.length) return [0, false, argNum];
    const arg = this.args[argNum]!;
    let num = 0;
    let isInt = false;
    if (arg.t === "int64") {
      num = Number(arg.v);
      isInt = true;
    }
    if (num > TOO_LARGE || num < -TOO_LARGE) return [0, false, argNum + 1];
    return [num, isInt, argNum + 1];
  }

}

/** Go's parsenum: digits at s[start:end]; a crazy-long number consumes the rest of the format. */
function parseNum(s: string, start: number, end: number): [number, boolean, number] {
  if (start >= end) return [0, false, end];
  let num = 0;
  let isNum = false;
  let i = start;
  for (; i < end && s[i]! >= "0" && s[i]! <= "9"; i++) {
    if (num > TOO_LARGE || num < -TOO_LARGE) return [0, false, end];
    num = num * 10 + (s.charCodeAt(i) - 48);
    isNum = true;
  }
  return [num, isNum, i];
}

/** `[n]` at the start of s: the zero-based index, the characters consumed, and whether it parsed. */
function parseArgNumber(s: string): [number, number, boolean] {
  if (s.length < 3) return [0, 1, false];
  for (let i = 1; i < s.length; i++) {
    if (s[i] === "]") {
      const [width, ok, newi] = parseNum(s, 1, i);
      if (!ok || newi !== i) return [0, i + 1, false];
      return [width - 1, i + 1, true];
    }
  }
  return [0, 1, false];
}

