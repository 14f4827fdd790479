// The values a Go template sees and Go's fmt printing of them, for strings.render_template.
// OPA hands the template its variables decoded from JSON with UseNumber, so values are Go's
// interface{} world: nil, bool, string, json.Number (a string type holding the number's text),
// []interface{}, map[string]interface{}; template constants add int and float64.
import { utf8Length } from "./goquote.js";

/** Go's json.Number: a string kind with String/Int64/Float64 methods. */
export class JsonNumber {
  constructor(readonly text: string) {}
}

/** A map[string]interface{}: keys kept sorted, as Go ranges and prints them. */
export type GoMap = ReadonlyMap<string, GoVal>;

/**
 * A template value. `undefined` is Go's invalid reflect.Value ("no value", e.g. a missing map key);
 * null is a nil interface; bigint is int; number is float64.
 */
export type GoVal = undefined | null | boolean | string | bigint | number | JsonNumber | readonly GoVal[] | GoMap;

export function isMap(v: GoVal): v is GoMap {
  return v instanceof Map;
}

/** Go's type name of a value, as error messages print it. */
export function goType(v: GoVal): string {
  if (v === undefined || v === null) return "<nil>";
  if (typeof v === "boolean") return "bool";
  if (typeof v === "string") return "string";
  if (typeof v === "bigint") return "int";
  if (typeof v === "number") return "float64";
  if (v instanceof JsonNumber) return "json.Number";
  if (Array.isArray(v)) return "[]interface {}";
  return "map[string]interface {}";
}

/** Go's strconv.FormatFloat for verbs e, f, g (prec -1: the shortest repr); %v is 'g' with -1. */
export function formatFloat(f: number, verb = "g", prec = -1): string {
  if (Number.isNaN(f)) return "NaN";
  if (!Number.isFinite(f)) return f > 0 ? "+Inf" : "-Inf";
  const neg = f < 0 || Object.is(f, -0);
  const a = Math.abs(f);
  let body: string;
  switch (verb) {
    case "f":
    case "F":
      body = prec < 0 ? fixed(...decimalDigits(a, -1)) : a.toFixed(Math.min(prec, 100));
      break;
    case "e":
    case "E": {
      const [digits, exp] = decimalDigits(a, prec < 0 ? -1 : prec + 1);
      body = expForm(prec < 0 ? digits : digits.padEnd(prec + 1, "0"), exp);
      break;
    }
    default: {
      // %e when the exponent is < -4 or >= the precision (6 for the shortest repr).
      const [digits, exp] = decimalDigits(a, prec < 0 ? -1 : Math.max(prec, 1));
      let eprec = prec < 0 ? 6 : Math.max(prec, 1);
      if (prec >= 0 && eprec > digits.length && digits.length >= exp + 1) eprec = digits.length;
      body = exp < -4 || exp >= eprec ? expForm(digits, exp) : fixed(digits, exp);
    }
  }
  if (verb === "E" || verb === "G") body = body.toUpperCase();
  return neg ? `-${body}` : body;
}

/** The significant digits (no trailing zeros) and decimal exponent of a non-negative double. */
function decimalDigits(a: number, significant: number): [string, number] {
  const e = significant < 0 ? a.toExponential() : a.toExponential(Math.min(significant, 101) - 1);
  const [mant, exp] = e.split("e") as [string, string];
  return [mant.replace(".", "").replace(/0+$/, "") || "0", Number(exp)];
}

function expForm(digits: string, exp: number): string {
  const mant = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  return `${mant}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
}

function fixed(digits: string, exp: number): string {
  if (exp < 0) return `0.${"0".repeat(-exp - 1)}${digits}`;
  if (digits.length <= exp + 1) return digits + "0".repeat(exp + 1 - digits.length);
  return `${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
}

/** fmt's %v of a value inside a composite (nil prints as <nil>). */
export function formatValue(v: GoVal): string {
  if (v === undefined) return "<no value>";
  if (v === null) return "<nil>";
  if (typeof v === "string") return v;
  if (typeof v === "boolean" || typeof v === "bigint") return String(v);
  if (typeof v === "number") return formatFloat(v);
  if (v instanceof JsonNumber) return v.text;
  if (Array.isArray(v)) return `[${v.map(formatValue).join(" ")}]`;
  const parts: string[] = [];
  for (const [k, val] of v as GoMap) parts.push(`${k}:${formatValue(val)}`);
  return `map[${parts.join(" ")}]`;
}

const isStringKind = (v: GoVal): boolean => typeof v === "string" || v instanceof JsonNumber;

/** fmt.Sprint: spaces between operands when neither is a string. */
export function sprint(args: readonly GoVal[]): string {
  let out = "";
  args.forEach((a, i) => {
    if (i > 0 && !isStringKind(a) && !isStringKind(args[i - 1])) out += " ";
    out += formatValue(a);
  });
  return out;
}

/** fmt.Sprintln: spaces between all operands and a newline. */
export function sprintln(args: readonly GoVal[]): string {
  return `${args.map(formatValue).join(" ")}\n`;
}

/** fmt.Sprintf for the verbs templates use: v s q d t f F e E g G x X o b c %, with flags, width and precision. */
export function sprintf(format: string, args: readonly GoVal[]): string {
  let out = "";
  let argi = 0;
  for (let i = 0; i < format.length; i++) {
    const c = format[i]!;
    if (c !== "%") {
      out += c;
      continue;
    }
    const m = /^([+\-# 0]*)(\*|\d+)?(?:\.(\*|\d*))?(.)?/su.exec(format.slice(i + 1))!;
    i += m[0].length;
    const flags = m[1]!;
    const verb = m[4];
    if (verb === undefined) {
      out += "%!(NOVERB)";
      break;
    }
    let width = -1;
    let prec = -1;
    if (m[2] === "*") width = Number(args[argi++] ?? 0);
    else if (m[2] !== undefined) width = Number(m[2]);
    if (m[3] === "*") prec = Number(args[argi++] ?? 0);
    else if (m[3] !== undefined) prec = m[3] === "" ? 0 : Number(m[3]);
    if (verb === "%") {
      out += "%";
      continue;
    }
    if (argi >= args.length) {
      out += `%!${verb}(MISSING)`;
      continue;
    }
    out += pad(formatVerb(args[argi++], verb, flags, prec), width, flags);
  }
  if (argi < args.length) {
    out += `%!(EXTRA ${args
      .slice(argi)
      .map((a) => `${goType(a)}=${formatValue(a)}`)
      .join(", ")})`;
  }
  return out;
}

function pad(s: string, width: number, flags: string): string {
  const n = [...s].length;
  if (width <= n) return s;
  if (flags.includes("-")) return s + " ".repeat(width - n);
  if (flags.includes("0") && /^[+-]?[0-9]/.test(s)) {
    const sign = /^[+-]/.test(s) ? s[0]! : "";
    return sign + "0".repeat(width - n) + s.slice(sign.length);
  }
  return " ".repeat(width - n) + s;
}

function bad(v: GoVal, verb: string): string {
  return `%!${verb}(${goType(v)}=${formatValue(v)})`;
}

function signed(s: string, flags: string): string {
  if (s.startsWith("-")) return s;
  if (flags.includes("+")) return `+${s}`;
  if (flags.includes(" ")) return ` ${s}`;
  return s;
}

function formatVerb(v: GoVal, verb: string, flags: string, prec: number): string {
  const text = typeof v === "string" ? v : v instanceof JsonNumber ? v.text : undefined;
  switch (verb) {
    case "v":
      if (typeof v === "number" || typeof v === "bigint") return signed(formatValue(v), flags);
      return formatValue(v);
    case "s":
      if (text !== undefined) return prec >= 0 ? [...text].slice(0, prec).join("") : text;
      if (Array.isArray(v) || v instanceof Map) return formatValue(v);
      return bad(v, verb);
    case "q":
      if (text !== undefined) return JSON.stringify(text);
      if (typeof v === "bigint") return `'${String.fromCodePoint(Number(v))}'`;
      return bad(v, verb);
    case "t":
      return typeof v === "boolean" ? String(v) : bad(v, verb);
    case "d":
    case "o":
    case "b":
    case "x":
    case "X":
    case "c":
    case "U":
      if (typeof v === "bigint") return formatInt(v, verb, flags);
      if (text !== undefined && (verb === "x" || verb === "X")) {
        const hex = [...new TextEncoder().encode(text)].map((b) => b.toString(16).padStart(2, "0")).join("");
        return verb === "X" ? hex.toUpperCase() : hex;
      }
      if (typeof v === "number" && (verb === "x" || verb === "X" || verb === "b")) return bad(v, verb);
      return bad(v, verb);
    case "e":
    case "E":
    case "f":
    case "F":
    case "g":
    case "G":
      if (typeof v === "number") return signed(formatFloat(v, verb, verb === "g" || verb === "G" ? prec : prec < 0 ? 6 : prec), flags);
      return bad(v, verb);
    default:
      return bad(v, verb);
  }
}

function formatInt(v: bigint, verb: string, flags: string): string {
  const neg = v < 0n;
  const abs = neg ? -v : v;
  let body: string;
  switch (verb) {
    case "o":
      body = (flags.includes("#") ? "0" : "") + abs.toString(8);
      break;
    case "b":
      body = abs.toString(2);
      break;
    case "x":
      body = (flags.includes("#") ? "0x" : "") + abs.toString(16);
      break;
    case "X":
      body = (flags.includes("#") ? "0X" : "") + abs.toString(16).toUpperCase();
      break;
    case "c":
      return String.fromCodePoint(Number(v));
    case "U":
      return `U+${abs.toString(16).toUpperCase().padStart(4, "0")}`;
    default:
      body = abs.toString();
  }
  return signed(neg ? `-${body}` : body, flags);
}

/** Go's len of a string: its UTF-8 byte count. */
export function stringLength(s: string): number {
  return utf8Length(s);
}
