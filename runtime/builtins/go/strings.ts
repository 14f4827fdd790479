// Go's strings package semantics the string builtins rely on, where JS differs:
//   - case mapping is per rune with Unicode's simple mappings (Go: upper("ß") == "ß", lower("İ")
//     == "i", no final-sigma rule), where JS's toUpperCase/toLowerCase apply SpecialCasing;
//   - TrimSpace trims unicode.IsSpace (includes U+0085, excludes U+FEFF, unlike String.trim);
//   - Trim/TrimLeft/TrimRight take a cutset of runes;
//   - Split with an empty separator splits into runes; NewReplacer matches patterns in argument
//     order at each position, including an empty pattern.
// Strings are handled as runes (code points) so that surrogate pairs are never split.
import { fromRunes, runes } from "./strconv.js";

const ASCII = /^[\x00-\x7f]*$/;

export function isAscii(s: string): boolean {
  return ASCII.test(s);
}

/** unicode.ToUpper for one rune: the simple mapping. */
function upperRune(r: number): number {
  const ch = String.fromCodePoint(r);
  const up = ch.toUpperCase();
  const u = up.codePointAt(0)!;
  if (up.length === String.fromCodePoint(u).length) return u;
  // A SpecialCasing (multi-rune) mapping: Go keeps the rune, except the Greek letters with
  // ypogegrammeni whose simple uppercase is the titlecase letter.
  if (r >= 0x1f80 && r <= 0x1faf) return (r & 0xf) < 8 ? r + 8 : r;
  if (r === 0x1fb3 || r === 0x1fc3 || r === 0x1ff3) return r + 9;
  return r;
}

/** unicode.ToLower for one rune: the simple mapping (İ → i rather than i + U+0307). */
function lowerRune(r: number): number {
  const low = String.fromCodePoint(r).toLowerCase();
  const l = low.codePointAt(0)!;
  if (low.length === String.fromCodePoint(l).length) return l;
  return r === 0x130 ? 0x69 : r;
}

export function goToUpper(s: string): string {
  if (isAscii(s)) return s.toUpperCase();
  return fromRunes(runes(s).map(upperRune));
}

export function goToLower(s: string): string {
  if (isAscii(s)) return s.toLowerCase();
  return fromRunes(runes(s).map(lowerRune));
}

/** unicode.IsSpace. */
export function isSpace(r: number): boolean {
  switch (r) {
    case 0x09:
    case 0x0a:
    case 0x0b:
    case 0x0c:
    case 0x0d:
    case 0x20:
    case 0x85:
    case 0xa0:
    case 0x1680:
    case 0x2028:
    case 0x2029:
    case 0x202f:
    case 0x205f:
    case 0x3000:
      return true;
    default:
      return r >= 0x2000 && r <= 0x200a;
  }
}

function trimRunes(s: string, left: boolean, right: boolean, cut: (r: number) => boolean): string {
  const rs = runes(s);
  let start = 0;
  let end = rs.length;
  if (left) while (start < end && cut(rs[start]!)) start++;
  if (right) while (end > start && cut(rs[end - 1]!)) end--;
  if (start === 0 && end === rs.length) return s;
  return fromRunes(rs.slice(start, end));
}

export function goTrimSpace(s: string): string {
  return trimRunes(s, true, true, isSpace);
}

/** strings.Trim / TrimLeft / TrimRight with a cutset of runes. */
export function goTrim(s: string, cutset: string, left: boolean, right: boolean): string {
  if (s === "" || cutset === "") return s;
  const set = new Set(runes(cutset));
  return trimRunes(s, left, right, (r) => set.has(r));
}

/** strings.Split: an empty separator splits into runes (and "" into no parts). */
export function goSplit(s: string, sep: string): string[] {
  if (sep === "") return Array.from(s);
  return s.split(sep);
}

/** strings.Count: non-overlapping occurrences; an empty substring counts runes + 1. */
export function goCount(s: string, sub: string): number {
  if (sub === "") return runes(s).length + 1;
  let n = 0;
  for (let i = s.indexOf(sub); i >= 0; i = s.indexOf(sub, i + sub.length)) n++;
  return n;
}

/**
 * strings.NewReplacer(old1, new1, old2, new2, ...).Replace(s): at each position the first pair
 * (in argument order) whose old string starts there wins; an empty old string matches at every
 * rune boundary, but not twice in a row at the same position.
 */
export function goReplace(s: string, pairs: ReadonlyArray<readonly [string, string]>): string {
  if (pairs.length === 1 && pairs[0]![0] !== "") return s.split(pairs[0]![0]).join(pairs[0]![1]);
  let out = "";
  let last = 0;
  let prevMatchEmpty = false;
  for (let i = 0; i <= s.length; ) {
    let match: readonly [string, string] | undefined;
    for (const p of pairs) {
      if (p[0] === "" ? !prevMatchEmpty : s.startsWith(p[0], i)) {
        match = p;
        break;
      }
    }
    prevMatchEmpty = match !== undefined && match[0] === "";
    if (match) {
      out += s.slice(last, i) + match[1];
      i += match[0].length;
      last = i;
      continue;
    }
    i += i < s.length && isHighSurrogatePair(s, i) ? 2 : 1;
  }
  if (last < s.length) out += s.slice(last);
  return out;
}

function isHighSurrogatePair(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  if (c < 0xd800 || c > 0xdbff || i + 1 >= s.length) return false;
  const d = s.charCodeAt(i + 1);
  return d >= 0xdc00 && d <= 0xdfff;
}

// A search string with surrogates or U+FFFD is matched rune by rune: a JS substring search could
// match half of a surrogate pair, and a lone surrogate stands for U+FFFD.
const NEEDS_RUNES = /[\ud800-\udfff\ufffd]/;

function runeSearch(s: string, sub: string, all: boolean): number[] {
  const rs = runes(s);
  const ss = runes(sub);
  const out: number[] = [];
  outer: for (let i = 0; i + ss.length <= rs.length; i++) {
    for (let j = 0; j < ss.length; j++) if (rs[i + j] !== ss[j]) continue outer;
    out.push(i);
    if (!all) break;
  }
  return out;
}

/** The rune index of the first occurrence of sub in s, or -1 (OPA's indexof counts runes). */
export function runeIndexOf(s: string, sub: string): number {
  if (NEEDS_RUNES.test(sub)) return runeSearch(s, sub, false)[0] ?? -1;
  const i = s.indexOf(sub);
  if (i <= 0) return i;
  return runes(s.slice(0, i)).length;
}

/** Rune indexes of every (overlapping) occurrence of sub in s. */
export function runeIndexesOf(s: string, sub: string): number[] {
  if (NEEDS_RUNES.test(sub)) return runeSearch(s, sub, true);
  const out: number[] = [];
  let runeIdx = 0;
  let unit = 0;
  for (let i = s.indexOf(sub); i >= 0; i = s.indexOf(sub, i + 1)) {
    runeIdx += runes(s.slice(unit, i)).length;
    unit = i;
    out.push(runeIdx);
  }
  return out;
}
