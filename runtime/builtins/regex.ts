// Builtins of OPA's "regex" category. Patterns are Go RE2 syntax and semantics, through re2js (a
// port of RE2/Go's regexp: same syntax, same leftmost-first matching, same error texts), compiled
// once into a bounded LRU cache. Invalid patterns are OPA's errors: `eval_builtin_error` with Go's
// message, e.g. "regex.match: error parsing regexp: missing closing ]: `[`".
import { RE2JS, RE2JSSyntaxException } from "re2js";
import { builtinError, int, str, succeeds } from "./args.js";
import type { EvalContext } from "./context.js";
import { quote as goQuote, utf8Length } from "./go/strconv.js";
import { globsIntersect } from "./globsIntersect.js";
import { LruCache } from "./lruCache.js";
import type { BuiltinTable } from "./registry.js";
import type { Value } from "../value/value.js";

/** re2js's Go-style regexp object (RE2JS.re2()). */
type GoRegexp = ReturnType<RE2JS["re2"]>;

interface Compiled {
  re: GoRegexp;
  names: Record<string, number>;
}

/** Compiled patterns (and the errors of invalid ones) by pattern text. */
const cache = new LruCache<Compiled>(256);

/** Go's regexp.Compile, with its error text. */
function compileGo(pattern: string): Compiled {
  try {
    const re = RE2JS.compile(pattern);
    return { re: re.re2(), names: re.namedGroups() };
  } catch (e) {
    if (e instanceof RE2JSSyntaxException) {
      // Go always appends the offending text, even when it is empty.
      throw builtinError(e.input === null ? `${e.message}: \`\`` : e.message);
    }
    throw e;
  }
}

/** A compiled pattern from the cache; an invalid pattern throws its (cached) error. */
export function getRegexp(pattern: string): Compiled {
  return cache.get(pattern, () => compileGo(pattern));
}

function regexMatch(_ctx: EvalContext, pattern: Value, value: Value): Value {
  const p = str(pattern, 1);
  const s = str(value, 2);
  return getRegexp(p).re.match(s) as boolean;
}

function regexIsValid(_ctx: EvalContext, pattern: Value): Value {
  return typeof pattern === "string" && succeeds(Error, () => getRegexp(pattern));
}

function regexFindN(_ctx: EvalContext, pattern: Value, value: Value, number: Value): Value {
  const p = str(pattern, 1);
  const s = str(value, 2);
  const n = int(number, 3);
  const re = getRegexp(p).re;
  return ((re.findAll(s, n) as string[] | null) ?? []).slice();
}

function regexFindAllStringSubmatchN(_ctx: EvalContext, pattern: Value, value: Value, number: Value): Value {
  const p = str(pattern, 1);
  const s = str(value, 2);
  const n = int(number, 3);
  const re = getRegexp(p).re;
  const matches = (re.findAllSubmatch(s, n) as Array<Array<string | null>> | null) ?? [];
  // Go gives "" for a group that took no part in the match.
  return matches.map((m) => m.map((g) => g ?? ""));
}

/** Go's Regexp.Split(s, -1). */
function regexSplit(_ctx: EvalContext, pattern: Value, value: Value): Value {
  const p = str(pattern, 1);
  const s = str(value, 2);
  if (p.length > 0 && s.length === 0) return [""];
  const matches = (getRegexp(p).re.findAllIndex(s, -1) as number[][] | null) ?? [];
  const out: string[] = [];
  let beg = 0;
  let end = 0;
  for (const m of matches) {
    end = m[0]!;
    if (m[1] !== 0) out.push(s.slice(beg, end));
    beg = m[1]!;
  }
  if (end !== s.length) out.push(s.slice(beg));
  return out;
}

/** Go's Regexp.ReplaceAllString: every match replaced by the template expanded with $1, ${name}, $$. */
function regexReplace(_ctx: EvalContext, base: Value, pattern: Value, value: Value): Value {
  const s = str(base, 1);
  const p = str(pattern, 2);
  const template = str(value, 3);
  const compiled = getRegexp(p);
  const matches = (compiled.re.findAllSubmatchIndex(s, -1) as number[][] | null) ?? [];
  if (matches.length === 0) return s;
  let out = "";
  let last = 0;
  for (const m of matches) {
    out += s.slice(last, m[0]) + expand(template, s, m, compiled.names);
    last = m[1]!;
  }
  return out + s.slice(last);
}

const NAME_CHAR = /[\p{L}\p{Nd}_]/u;

/** Go's Regexp.Expand for one match: `$name`/`${name}` (all digits: a group number), `$$` is `$`. */
function expand(template: string, src: string, m: readonly number[], names: Record<string, number>): string {
  let out = "";
  let i = 0;
  while (i < template.length) {
    const dollar = template.indexOf("$", i);
    if (dollar < 0) break;
    out += template.slice(i, dollar);
    i = dollar + 1;
    if (template[i] === "$") {
      out += "$";
      i++;
      continue;
    }
    const ref = extractName(template, i);
    if (ref === undefined) {
      out += "$"; // malformed: the `$` is literal text
      continue;
    }
    i = ref.end;
    const group = ref.num >= 0 ? ref.num : Object.hasOwn(names, ref.name) ? names[ref.name]! : -1;
    if (group >= 0 && 2 * group + 1 < m.length && m[2 * group]! >= 0) out += src.slice(m[2 * group], m[2 * group + 1]);
  }
  return out + template.slice(i);
}

function extractName(t: string, start: number): { name: string; num: number; end: number } | undefined {
  let i = start;
  const brace = t[i] === "{";
  if (brace) i++;
  const nameStart = i;
  while (i < t.length) {
    const ch = String.fromCodePoint(t.codePointAt(i)!);
    if (!NAME_CHAR.test(ch)) break;
    i += ch.length;
  }
  if (i === nameStart) return undefined;
  const name = t.slice(nameStart, i);
  if (brace) {
    if (t[i] !== "}") return undefined;
    i++;
  }
  let num = /^[0-9]+$/.test(name) && name.length <= 8 ? Number(name) : -1;
  if (name.length > 1 && name[0] === "0") num = -1;
  return { name, num, end: i };
}

// regex.template_match: OPA's port of gorilla/mux's templates — text outside the delimiters is
// literal, text inside is a regex; the whole must match.
function regexTemplateMatch(_ctx: EvalContext, pattern: Value, match: Value, start: Value, end: Value): Value {
  const tpl = str(pattern, 1);
  const s = str(match, 2);
  const open = str(start, 3);
  const close = str(end, 4);
  // OPA reports the start delimiter's length in both messages.
  if (utf8Length(open) !== 1) throw builtinError(`start delimiter has to be exactly one character long but is ${utf8Length(open)} long`);
  if (utf8Length(close) !== 1) throw builtinError(`end delimiter has to be exactly one character long but is ${utf8Length(open)} long`);
  const compiled = cache.get(`\u0000template\u0000${open}${close}\u0000${tpl}`, () => compileTemplate(tpl, open, close));
  return compiled.re.match(s) as boolean;
}

function compileTemplate(tpl: string, open: string, close: string): Compiled {
  // First-level delimiter pairs, as [start, end) index pairs.
  const idxs: number[] = [];
  let level = 0;
  let idx = 0;
  for (let i = 0; i < tpl.length; i++) {
    if (tpl[i] === open) {
      if (++level === 1) idx = i;
    } else if (tpl[i] === close) {
      if (--level === 0) idxs.push(idx, i + 1);
      else if (level < 0) throw builtinError(`unbalanced braces in ${goQuote(tpl)}`);
    }
  }
  if (level !== 0) throw builtinError(`unbalanced braces in ${goQuote(tpl)}`);
  let pattern = "^";
  let last = 0;
  for (let i = 0; i < idxs.length; i += 2) {
    const raw = tpl.slice(last, idxs[i]);
    last = idxs[i + 1]!;
    const inner = tpl.slice(idxs[i]! + 1, last - 1);
    pattern += `${quoteMeta(raw)}(${inner})`;
    compileGo(`^${inner}$`); // each variable must be a valid regex on its own
  }
  pattern += `${quoteMeta(tpl.slice(last))}$`;
  return compileGo(pattern);
}

/** Go's regexp.QuoteMeta. */
function quoteMeta(s: string): string {
  return s.replace(/[\\.+*?()|[\]{}^$]/g, "\\$&");
}

function regexGlobsMatch(_ctx: EvalContext, glob1: Value, glob2: Value): Value {
  const a = str(glob1, 1);
  const b = str(glob2, 2);
  return globsIntersect(a, b);
}

export const regexBuiltins: BuiltinTable = {
  "regex.match": { fn: regexMatch },
  re_match: { fn: regexMatch },
  "regex.is_valid": { fn: regexIsValid },
  "regex.find_n": { fn: regexFindN },
  "regex.find_all_string_submatch_n": { fn: regexFindAllStringSubmatchN },
  "regex.split": { fn: regexSplit },
  "regex.replace": { fn: regexReplace },
  "regex.template_match": { fn: regexTemplateMatch },
  "regex.globs_match": { fn: regexGlobsMatch },
};
