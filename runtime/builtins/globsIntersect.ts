// regex.globs_match: whether two "globs" (a regex-like language of literal runes, `.`, `[...]` sets,
// `\` escapes, and `*` / `+` applied to the preceding token) can match a common non-empty string.
// OPA answers this with github.com/yashtewari/glob-intersection; no JS library implements that
// algorithm, and OPA's answers (including its approximations: the search is greedy token by token,
// not a full automaton intersection) are what policies depend on, so the same algorithm is written
// here from its description: tokenize, merge adjacent flagged duplicates, trim a matching prefix and
// suffix, then walk both token lists, letting a starred/plussed token gobble tokens of the other side.
import { goErrors } from "./args.js";

const enum Kind {
  Char,
  Dot,
  Set,
}

const enum Flag {
  None,
  Plus,
  Star,
}

interface Token {
  kind: Kind;
  flag: Flag;
  /** The rune of a Char token. */
  rune: number;
  /** The runes of a Set token. */
  runes: Set<number> | undefined;
}

class InvalidGlob extends Error {}

function invalid(input: readonly number[], pos: number, message: string): InvalidGlob {
  return new InvalidGlob(`input:${String.fromCodePoint(...input)}, pos:${pos}, ${message}: the input provided is invalid`);
}

interface Rune {
  next: number;
  r: number;
  escaped: boolean;
}

/** The rune at `i` (a backslash escapes the following rune); undefined at the end of input. */
function nextRune(input: readonly number[], i: number): Rune | undefined {
  if (i >= input.length) return undefined;
  if (input[i] === 0x5c /* \ */) {
    if (i === input.length - 1) throw invalid(input, i, "input ends with a \\ (escape) character");
    return { next: i + 2, r: input[i + 1]!, escaped: true };
  }
  return { next: i + 1, r: input[i]!, escaped: false };
}

function tokenize(text: string): Token[] {
  const input = Array.from(text, (c) => c.codePointAt(0)!);
  const tokens: Token[] = [];
  let i = 0;
  for (;;) {
    const first = nextRune(input, i);
    if (first === undefined) return tokens;
    let token: Token;
    i = first.next;
    if (!first.escaped && first.r === 0x2e /* . */) {
      token = { kind: Kind.Dot, flag: Flag.None, rune: 0, runes: undefined };
    } else if (!first.escaped && first.r === 0x5d /* ] */) {
      throw invalid(input, i, "set-close ']' with no preceding '['");
    } else if (!first.escaped && first.r === 0x5b /* [ */) {
      const [next, runes] = readSet(input, i);
      i = next;
      token = { kind: Kind.Set, flag: Flag.None, rune: 0, runes };
    } else if (!first.escaped && (first.r === 0x2a || first.r === 0x2b) /* * + */) {
      throw invalid(input, i, `flag '${String.fromCodePoint(first.r)}' must be preceded by a non-flag`);
    } else {
      token = { kind: Kind.Char, flag: Flag.None, rune: first.r, runes: undefined };
    }
    // An unescaped * or + right after a token is its flag.
    const flag = nextRune(input, i);
    if (flag !== undefined && !flag.escaped && (flag.r === 0x2a || flag.r === 0x2b)) {
      token.flag = flag.r === 0x2a ? Flag.Star : Flag.Plus;
      i = flag.next;
    }
    tokens.push(token);
  }
}

/** Reads a set after its `[`; returns the index after the closing `]` and the runes. */
function readSet(input: readonly number[], start: number): [number, Set<number>] {
  const runes = new Set<number>();
  let prev = 0;
  let prevExists = false;
  let i = start;
  for (let cur = nextRune(input, i); cur !== undefined; cur = nextRune(input, i)) {
    i = cur.next;
    if (cur.escaped) {
      runes.add(cur.r);
      prev = cur.r;
      prevExists = true;
      continue;
    }
    if (cur.r === 0x5d /* ] */) return [i, runes];
    if (cur.r !== 0x2d /* - */) {
      runes.add(cur.r);
      prev = cur.r;
      prevExists = true;
      continue;
    }
    if (!prevExists) throw invalid(input, i, "range character '-' must be preceded by a Unicode character");
    if (i >= input.length - 1) throw invalid(input, i, "range character '-' must be followed by a Unicode character");
    const hi = nextRune(input, i)!;
    i = hi.next;
    if (!hi.escaped && (hi.r === 0x5d || hi.r === 0x2d)) {
      throw invalid(input, i, "range character '-' cannot be followed by a special symbol");
    }
    if (hi.r < prev) {
      throw invalid(input, i, `range is out of order: '${String.fromCodePoint(hi.r)}' comes before '${String.fromCodePoint(prev)}' in Unicode`);
    }
    for (let x = prev; x <= hi.r; x++) runes.add(x);
    prevExists = false;
  }
  throw invalid(input, i, "found [ without matching ]");
}

function sameContent(a: Token, b: Token): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === Kind.Char) return a.rune === b.rune;
  if (a.kind === Kind.Dot) return true;
  if (a.runes!.size !== b.runes!.size) return false;
  for (const r of a.runes!) if (!b.runes!.has(r)) return false;
  return true;
}

/** Merges runs of equal flagged tokens (t*t* → t*, t+t* → t+). */
function simplify(tokens: Token[]): Token[] {
  if (tokens.length === 0) return tokens;
  const out: Token[] = [tokens[0]!];
  let latest = tokens[0]!;
  for (let i = 1; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.flag !== Flag.None && latest.flag !== Flag.None && sameContent(t, latest)) {
      out[out.length - 1]!.flag = t.flag === Flag.Plus || latest.flag === Flag.Plus ? Flag.Plus : Flag.Star;
      continue;
    }
    latest = t;
    out.push(t);
  }
  return out;
}

/** Whether two single tokens can match a common rune. */
function match(a: Token, b: Token): boolean {
  if (a.kind === Kind.Dot || b.kind === Kind.Dot) return true;
  if (a.kind === Kind.Char && b.kind === Kind.Char) return a.rune === b.rune;
  if (a.kind === Kind.Char) return b.runes!.has(a.rune);
  if (b.kind === Kind.Char) return a.runes!.has(b.rune);
  for (const r of a.runes!) if (b.runes!.has(r)) return true;
  return false;
}

type Glob = readonly Token[];

/** Trims a common unflagged prefix and suffix (keeping one token of each); undefined on a mismatch. */
function trim(g1: Glob, g2: Glob): [Glob, Glob] | undefined {
  let l = 0;
  for (; l < g1.length && l < g2.length && g1[l]!.flag === Flag.None && g2[l]!.flag === Flag.None; l++) {
    if (!match(g1[l]!, g2[l]!)) return undefined;
  }
  if (l > 0) l--;
  let r1 = g1.length - 1;
  let r2 = g2.length - 1;
  for (; r1 >= 0 && r1 >= l && r2 >= 0 && r2 >= l && g1[r1]!.flag === Flag.None && g2[r2]!.flag === Flag.None; r1--, r2--) {
    if (!match(g1[r1]!, g2[r2]!)) return undefined;
  }
  if (r1 < g1.length - 1) {
    r1++;
    r2++;
  }
  return [g1.slice(l, r1 + 1), g2.slice(l, r2 + 1)];
}

function intersectNormal(g1: Glob, g2: Glob): boolean {
  let i = 0;
  let j = 0;
  for (; i < g1.length && j < g2.length; i++, j++) {
    if (g1[i]!.flag !== Flag.None || g2[j]!.flag !== Flag.None) return intersectSpecial(g1.slice(i), g2.slice(j));
    if (!match(g1[i]!, g2[j]!)) return false;
  }
  return i === g1.length && j === g2.length;
}

function intersectSpecial(g1: Glob, g2: Glob): boolean {
  const [flagged, other] = g1[0]!.flag !== Flag.None ? [g1, g2] : [g2, g1];
  return flagged[0]!.flag === Flag.Plus ? intersectPlus(flagged, other) : intersectStar(flagged, other);
}

function intersectPlus(plussed: Glob, other: Glob): boolean {
  if (!match(plussed[0]!, other[0]!)) return false;
  if (intersectStar(plussed, other.slice(1))) return true;
  // A flagged other[0] may instead absorb plussed[0] entirely.
  return other[0]!.flag !== Flag.None && intersectNormal(plussed.slice(1), other);
}

function intersectStar(starred: Glob, other: Glob): boolean {
  const star = starred[0]!;
  const next = starred[1];
  for (let i = 0; i < other.length; i++) {
    const t = other[i]!;
    if (next !== undefined && match(t, next) && intersectNormal(starred.slice(1), other.slice(i))) return true;
    if (!match(t, star)) return false;
  }
  return next === undefined;
}

/** OPA's regex.globs_match; invalid globs are builtin errors with the library's messages. */
export function globsIntersect(lhs: string, rhs: string): boolean {
  const [g1, g2] = goErrors(InvalidGlob, () => [simplify(tokenize(lhs)), simplify(tokenize(rhs))]);
  const trimmed = trim(g1, g2);
  return trimmed !== undefined && intersectNormal(trimmed[0], trimmed[1]);
}
