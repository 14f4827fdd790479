// Builtins of OPA's "semver" category. OPA validates with its own parser (internal/semver): an
// optional leading "v", "+metadata" and "-prerelease" of [0-9A-Za-z-] dot-separated identifiers,
// and exactly major.minor.patch as int64s, where Go's ParseInt accepts leading zeros and a "+"
// sign. The semver package's grammar differs (no leading zeros, "=" prefixes, whitespace, numbers
// up to 2^53), so it would accept and refuse other strings than OPA: the rules are ported here.
import type { Value } from "../value/value.js";
import { INT64_MAX, INT64_MIN, builtinError, str } from "./args.js";
import type { EvalContext } from "./context.js";
import { quote } from "./go/strconv.js";
import type { BuiltinTable } from "./registry.js";

interface Version {
  major: bigint;
  minor: bigint;
  patch: bigint;
  pre: string;
}

const IDENTIFIERS = /^[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*$/;

function cut(s: string, sep: string): [string, string] {
  const i = s.indexOf(sep);
  return i < 0 ? [s, ""] : [s.slice(0, i), s.slice(i + 1)];
}

/** strconv.ParseInt(s, 10, 64). */
function parseInt64(s: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const v = BigInt(s);
  return v < INT64_MIN || v > INT64_MAX ? undefined : v;
}

export function parseSemver(text: string): Version | undefined {
  let v = text.startsWith("v") ? text.slice(1) : text;
  let meta: string;
  [v, meta] = cut(v, "+");
  if (meta !== "" && !IDENTIFIERS.test(meta)) return undefined;
  let pre: string;
  [v, pre] = cut(v, "-");
  if (pre !== "" && !IDENTIFIERS.test(pre)) return undefined;
  const parts = v.split(".");
  if (parts.length !== 3) return undefined;
  const [major, minor, patch] = parts.map(parseInt64);
  if (major === undefined || minor === undefined || patch === undefined) return undefined;
  return { major, minor, patch, pre };
}

const isDecimal = (s: string) => /^[0-9]+$/.test(s);

/** Go's strconv.Atoi as OPA uses it here: errors ignored, out-of-range values clamped. */
function atoi(s: string): bigint {
  const v = BigInt(s);
  return v > INT64_MAX ? INT64_MAX : v;
}

const sign = (a: bigint, b: bigint) => (a > b ? 1 : a < b ? -1 : 0);

/** SemVer precedence, pre-release identifiers compared as OPA does. */
export function compareSemver(a: Version, b: Version): number {
  const c = sign(a.major, b.major) || sign(a.minor, b.minor) || sign(a.patch, b.patch);
  if (c !== 0) return c;
  if (a.pre === b.pre) return 0;
  if (a.pre === "") return 1;
  if (b.pre === "") return -1;
  let [x, restA] = cut(a.pre, ".");
  let [y, restB] = cut(b.pre, ".");
  for (;;) {
    if (x === "" && y !== "") return -1;
    if (x !== "" && y === "") return 1;
    const xi = isDecimal(x);
    const yi = isDecimal(y);
    if (xi && !yi) return -1;
    if (!xi && yi) return 1;
    const d = xi ? sign(atoi(x), atoi(y)) : x > y ? 1 : x < y ? -1 : 0;
    if (d !== 0) return d;
    if (restA !== "" && restB === "") return 1;
    if (restA === "" && restB !== "") return -1;
    [x, restA] = cut(restA, ".");
    [y, restB] = cut(restB, ".");
  }
}

function semverCompare(_ctx: EvalContext, a: Value, b: Value): Value {
  const sa = str(a, 1);
  const sb = str(b, 2);
  const va = parseSemver(sa);
  if (va === undefined) throw builtinError(`operand 1: string ${quote(sa)} is not a valid SemVer`);
  const vb = parseSemver(sb);
  if (vb === undefined) throw builtinError(`operand 2: string ${quote(sb)} is not a valid SemVer`);
  return compareSemver(va, vb);
}

export const semverBuiltins: BuiltinTable = {
  "semver.compare": { fn: semverCompare },
  "semver.is_valid": { fn: (_ctx: EvalContext, x: Value) => typeof x === "string" && parseSemver(x) !== undefined },
};
