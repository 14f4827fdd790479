// The YAML 1.1 rules of go-yaml v2, which OPA's yaml.* builtins use through sigs.k8s.io/yaml:
//   - how an untagged plain scalar resolves (yes/no/on/off/y/n are booleans, 0777 octal, 0x1F
//     hex, 1_000 an integer, integers beyond uint64 floats, timestamps stay strings);
//   - how yaml.marshal writes a JSON value: block style, keys in go-yaml's "natural" order,
//     plain scalars where they read back the same, 'single' or "double" quotes otherwise, |
//     literals for multi-line strings, and plain scalars folded past column 80.
// The yaml package parses (yaml.ts); the emitter is a port of go-yaml's (libyaml's) decisions
// because the yaml package's stringifier quotes, folds and orders keys differently.
import { INT64_MAX, INT64_MIN } from "../args.js";
import { formatFloat } from "./float.js";
import { runes } from "./strconv.js";

export type Resolved =
  | { t: "null" }
  | { t: "bool"; v: boolean }
  | { t: "int"; v: bigint }
  | { t: "float"; v: number }
  | { t: "str"; v: string };

const SPECIAL = new Map<string, Resolved>();
const put = (words: string, r: Resolved) => words.split(" ").forEach((w) => SPECIAL.set(w, r));
put("y Y yes Yes YES true True TRUE on On ON", { t: "bool", v: true });
put("n N no No NO false False FALSE off Off OFF", { t: "bool", v: false });
put("~ null Null NULL", { t: "null" });
SPECIAL.set("", { t: "null" });
put(".nan .NaN .NAN", { t: "float", v: NaN });
put(".inf .Inf .INF +.inf +.Inf +.INF", { t: "float", v: Infinity });
put("-.inf -.Inf -.INF", { t: "float", v: -Infinity });

const UINT64_MAX = (1n << 64n) - 1n;
const YAML_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;

/** strconv.ParseInt(s, 0, 64) (signed) or ParseUint(s, 0, 64); undefined when it fails. */
function parseGoInt(s: string, signed: boolean): bigint | undefined {
  let i = 0;
  let neg = false;
  if (signed && (s[0] === "+" || s[0] === "-")) {
    neg = s[0] === "-";
    i = 1;
  }
  let base = 10;
  let body = s.slice(i);
  const prefix = body.slice(0, 2).toLowerCase();
  if (prefix === "0x" || prefix === "0o" || prefix === "0b") {
    base = prefix === "0x" ? 16 : prefix === "0o" ? 8 : 2;
    body = body.slice(2);
  } else if (body.length > 1 && body[0] === "0") {
    base = 8;
    body = body.slice(1);
  }
  const digits = { 2: /^[01]+$/, 8: /^[0-7]+$/, 10: /^[0-9]+$/, 16: /^[0-9a-fA-F]+$/ }[base]!;
  if (!digits.test(body)) return undefined;
  const prefixText = { 2: "0b", 8: "0o", 10: "", 16: "0x" }[base]!;
  let v = BigInt(prefixText + body);
  if (neg) v = -v;
  if (signed ? v < INT64_MIN || v > INT64_MAX : v > UINT64_MAX) return undefined;
  return v;
}

/** go-yaml v2's resolve("", s) for an untagged plain scalar. */
export function resolvePlain(s: string): Resolved {
  const c = s[0];
  const hint = c === undefined ? "N" : "+-".includes(c) ? "S" : c >= "0" && c <= "9" ? "D" : "yYnNtTfFoO~".includes(c) ? "M" : c === "." ? "." : "";
  if (hint === "") return { t: "str", v: s };
  const special = SPECIAL.get(s);
  if (special) return special;
  if (hint === "." && /^\.[0-9]+([eE][-+]?[0-9]+)?$/.test(s)) return floatOrStr(s);
  if (hint === "D" || hint === "S") {
    const plain = s.replace(/_/g, "");
    const i = parseGoInt(plain, true) ?? parseGoInt(plain, false);
    if (i !== undefined) return { t: "int", v: i };
    if (YAML_FLOAT.test(plain)) return floatOrStr(plain, s);
  }
  return { t: "str", v: s };
}

/** strconv.ParseFloat: an overflow is an error, which leaves the scalar a string. */
function floatOrStr(text: string, original = text): Resolved {
  const f = Number(text);
  return Number.isFinite(f) ? { t: "float", v: f } : { t: "str", v: original };
}

/** sigs.k8s.io/yaml's text for a non-string map key. */
export function keyText(r: Resolved): string | undefined {
  switch (r.t) {
    case "str":
      return r.v;
    case "int":
      return r.v.toString();
    case "bool":
      return r.v ? "true" : "false";
    case "float":
      if (Number.isNaN(r.v)) return ".nan";
      if (!Number.isFinite(r.v)) return r.v > 0 ? ".inf" : "-.inf";
      return formatFloat(r.v, "g", -1, 32);
    default:
      return undefined;
  }
}

// --- key order (go-yaml v2's keyList.Less for string keys) -----------------------------------------

const LETTER = /^\p{L}$/u;
const DIGIT = /^\p{Nd}$/u;
const isLetter = (r: number) => LETTER.test(String.fromCodePoint(r));
const isDigit = (r: number) => DIGIT.test(String.fromCodePoint(r));
const digitValue = (r: number) => r - 0x30;

/** go-yaml's "natural" order: letters by code point, digit runs by numeric value. */
export function yamlKeyLess(a: string, b: string): boolean {
  const ar = runes(a);
  const br = runes(b);
  for (let i = 0; i < ar.length && i < br.length; i++) {
    if (ar[i] === br[i]) continue;
    const al = isLetter(ar[i]!);
    const bl = isLetter(br[i]!);
    if (al && bl) return ar[i]! < br[i]!;
    if (al || bl) return bl;
    let an = 0n;
    let bn = 0n;
    if (ar[i] === 0x30 || br[i] === 0x30) {
      for (let j = i - 1; j >= 0 && isDigit(ar[j]!); j--) {
        if (ar[j] !== 0x30) {
          an = 1n;
          bn = 1n;
          break;
        }
      }
    }
    let ai = i;
    for (; ai < ar.length && isDigit(ar[ai]!); ai++) an = BigInt.asIntN(64, an * 10n + BigInt(digitValue(ar[ai]!)));
    let bi = i;
    for (; bi < br.length && isDigit(br[bi]!); bi++) bn = BigInt.asIntN(64, bn * 10n + BigInt(digitValue(br[bi]!)));
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return ar[i]! < br[i]!;
  }
  return ar.length < br.length;
}

// --- scalar analysis and styles (libyaml's yaml_emitter_analyze_scalar) -------------------------------

export interface Analysis {
  multiline: boolean;
  flowPlain: boolean;
  blockPlain: boolean;
  singleQuoted: boolean;
  block: boolean;
}

const isBreak = (r: number) => r === 0x0a || r === 0x0d || r === 0x85 || r === 0x2028 || r === 0x2029;
const isBlank = (r: number | undefined) => r === 0x20 || r === 0x09;

/** libyaml's is_printable (go-yaml emits with unicode on): no tabs, controls or astral runes. */
export function yamlPrintable(r: number): boolean {
  return (
    r === 0x0a ||
    (r >= 0x20 && r <= 0x7e) ||
    (r >= 0xa0 && r <= 0xd7ff) ||
    (r >= 0xe000 && r <= 0xfffd && r !== 0xfeff)
  );
}

export function analyzeScalar(value: string): Analysis {
  const rs = runes(value);
  if (rs.length === 0) return { multiline: false, flowPlain: false, blockPlain: true, singleQuoted: true, block: false };
  let blockInd = false;
  let flowInd = false;
  let lineBreaks = false;
  let special = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let precededByWs = true;
  let prevSpace = false;
  let prevBreak = false;
  if (value.startsWith("---") || value.startsWith("...")) blockInd = flowInd = true;
  for (let i = 0; i < rs.length; i++) {
    const r = rs[i]!;
    const ch = String.fromCodePoint(r);
    const followedByWs = i + 1 >= rs.length || isBlank(rs[i + 1]);
    if (i === 0) {
      if ("#,[]{}&*!|>'\"%@`".includes(ch)) flowInd = blockInd = true;
      else if (ch === "?" || ch === ":") {
        flowInd = true;
        if (followedByWs) blockInd = true;
      } else if (ch === "-" && followedByWs) flowInd = blockInd = true;
    } else if (",?[]{}".includes(ch)) flowInd = true;
    else if (ch === ":") {
      flowInd = true;
      if (followedByWs) blockInd = true;
    } else if (ch === "#" && precededByWs) flowInd = blockInd = true;
    if (!yamlPrintable(r)) special = true;
    if (r === 0x20) {
      if (i === 0) leadingSpace = true;
      if (i === rs.length - 1) trailingSpace = true;
      if (prevBreak) breakSpace = true;
      prevSpace = true;
      prevBreak = false;
    } else if (isBreak(r)) {
      lineBreaks = true;
      if (i === 0) leadingBreak = true;
      if (i === rs.length - 1) trailingBreak = true;
      if (prevSpace) spaceBreak = true;
      prevSpace = false;
      prevBreak = true;
    } else prevSpace = prevBreak = false;
    precededByWs = isBlank(r) || isBreak(r);
  }
  const a: Analysis = { multiline: lineBreaks, flowPlain: true, blockPlain: true, singleQuoted: true, block: true };
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) a.flowPlain = a.blockPlain = false;
  if (trailingSpace) a.block = false;
  if (breakSpace) a.flowPlain = a.blockPlain = a.singleQuoted = false;
  if (spaceBreak || special) a.flowPlain = a.blockPlain = a.singleQuoted = a.block = false;
  if (lineBreaks) a.flowPlain = a.blockPlain = false;
  if (flowInd) a.flowPlain = false;
  if (blockInd) a.blockPlain = false;
  return a;
}
