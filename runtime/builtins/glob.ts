// Builtins of OPA's "glob" category: glob.match and glob.quote_meta.
//
// OPA uses github.com/gobwas/glob. Its syntax is hand-parsed here because no JS glob library has its
// semantics: `*` matches any run of non-delimiter characters (anything when there are no
// delimiters), `**` anything, `?` one non-delimiter character, `[abc]`/`[!abc]` a character list,
// `[a-z]`/`[!a-z]` ONE range per bracket, `{a,b,...}` alternatives (nestable), `\` escapes; lists
// and ranges ignore delimiters. The lexer and parser follow gobwas's token rules so that the same
// patterns are accepted and the same errors reported ("unexpected end of input", "could not parse
// range", ...). A parsed pattern is compiled to an anchored RE2 regex (re2js: linear time, whole
// code points) and cached.
import { RE2JS } from "re2js";
import { arr, goErrors, operandElementError, operandTypeError, str } from "./args.js";
import type { EvalContext } from "./context.js";
import { LruCache } from "./lruCache.js";
import type { BuiltinTable } from "./registry.js";
import type { Value } from "../value/value.js";

const enum T {
  EOF,
  Error,
  Text,
  Any,
  Super,
  Single,
  RangeOpen,
  Not,
  RangeLo,
  RangeBetween,
  RangeHi,
  RangeClose,
  TermsOpen,
  Separator,
  TermsClose,
}

interface Token {
  t: T;
  raw: string;
}

class GlobSyntaxError extends Error {}

const TEXT_BREAKERS = new Set(["?", "*", "[", "{", "}"]);
const TERMS_BREAKERS = new Set(["?", "*", "[", "{", "}", ","]);
const RANGE_BREAKERS = new Set(["]"]);

// A rune gobwas cannot decode (U+FFFD, or a lone surrogate: invalid UTF-8 on Go's side) is an error.
const BAD_RUNE = /^(?:\uFFFD|[\uD800-\uDFFF])$/;

/**
 * gobwas's lexer. Like gobwas, it works in batches (one top-level item, a whole `[...]` at a time):
 * a lexing error replaces the batch it occurs in, so the parser reports any error of its own in an
 * earlier batch first.
 */
function lex(pattern: string): Token[] {
  const runes = Array.from(pattern);
  const tokens: Token[] = [];
  let pos = 0;
  let terms = 0;
  const at = (i: number): string | undefined => {
    const r = runes[i];
    if (r !== undefined && BAD_RUNE.test(r)) throw new GlobSyntaxError("could not read rune");
    return r;
  };
  const read = (): string | undefined => at(pos++);

  const fetchText = (breakers: ReadonlySet<string>): void => {
    let data = "";
    let escaped = false;
    for (let r = at(pos); r !== undefined; r = at(pos)) {
      if (!escaped) {
        if (r === "\\") {
          escaped = true;
          pos++;
          continue;
        }
        if (breakers.has(r)) break;
      }
      escaped = false;
      data += r;
      pos++;
    }
    if (data.length > 0) tokens.push({ t: T.Text, raw: data });
  };

  const fetchRange = (): void => {
    let wantHi = false;
    let wantClose = false;
    let seenNot = false;
    for (;;) {
      const r = read();
      if (r === undefined) throw new GlobSyntaxError("unexpected end of input");
      if (wantClose) {
        if (r !== "]") throw new GlobSyntaxError("expected close range character");
        tokens.push({ t: T.RangeClose, raw: r });
        return;
      }
      if (wantHi) {
        tokens.push({ t: T.RangeHi, raw: r });
        wantClose = true;
        continue;
      }
      if (!seenNot && r === "!") {
        tokens.push({ t: T.Not, raw: r });
        seenNot = true;
        continue;
      }
      if (at(pos) === "-") {
        pos++;
        tokens.push({ t: T.RangeLo, raw: r }, { t: T.RangeBetween, raw: "-" });
        wantHi = true;
        continue;
      }
      pos--;
      fetchText(RANGE_BREAKERS);
      wantClose = true;
    }
  };

  const fetchItem = (): boolean => {
    const r = read();
    if (r === undefined) {
      if (terms > 0) throw new GlobSyntaxError("unexpected end of input");
      tokens.push({ t: T.EOF, raw: "" });
      return false;
    }
    if (r === "{") {
      terms++;
      tokens.push({ t: T.TermsOpen, raw: r });
    } else if (r === "," && terms > 0) {
      tokens.push({ t: T.Separator, raw: r });
    } else if (r === "}") {
      if (terms === 0) throw new GlobSyntaxError("unexpected end of input");
      tokens.push({ t: T.TermsClose, raw: r });
      terms--;
    } else if (r === "[") {
      tokens.push({ t: T.RangeOpen, raw: r });
      fetchRange();
    } else if (r === "?") {
      tokens.push({ t: T.Single, raw: r });
    } else if (r === "*") {
      if (at(pos) === "*") {
        pos++;
        tokens.push({ t: T.Super, raw: "**" });
      } else tokens.push({ t: T.Any, raw: r });
    } else {
      pos--;
      fetchText(terms > 0 ? TERMS_BREAKERS : TEXT_BREAKERS);
    }
    return true;
  };

  for (;;) {
    const batch = tokens.length;
    try {
      if (!fetchItem()) return tokens;
    } catch (e) {
      if (!(e instanceof GlobSyntaxError)) throw e;
      tokens.length = batch;
      tokens.push({ t: T.Error, raw: e.message });
      return tokens;
    }
  }
}

type Node =
  | { kind: "pattern"; children: Node[]; parent: Node | undefined }
  | { kind: "anyOf"; children: Node[]; parent: Node | undefined }
  | { kind: "text"; text: string }
  | { kind: "any" | "super" | "single" }
  | { kind: "list"; chars: string; not: boolean }
  | { kind: "range"; lo: string; hi: string; not: boolean };

type Container = Extract<Node, { children: Node[] }>;

/** gobwas's parser over the token stream. */
function parse(tokens: readonly Token[]): Container {
  const root: Container = { kind: "pattern", children: [], parent: undefined };
  let tree: Container = root;
  let i = 0;
  for (;;) {
    const tok = tokens[i++]!;
    switch (tok.t) {
      case T.EOF:
        return root;
      case T.Error:
        throw new GlobSyntaxError(tok.raw);
      case T.Text:
        tree.children.push({ kind: "text", text: tok.raw });
        break;
      case T.Any:
        tree.children.push({ kind: "any" });
        break;
      case T.Super:
        tree.children.push({ kind: "super" });
        break;
      case T.Single:
        tree.children.push({ kind: "single" });
        break;
      case T.RangeOpen:
        i = parseRange(tokens, i, tree);
        break;
      case T.TermsOpen: {
        const anyOf: Container = { kind: "anyOf", children: [], parent: tree };
        const p: Container = { kind: "pattern", children: [], parent: anyOf };
        tree.children.push(anyOf);
        anyOf.children.push(p);
        tree = p;
        break;
      }
      case T.Separator: {
        const anyOf = tree.parent as Container;
        const p: Container = { kind: "pattern", children: [], parent: anyOf };
        anyOf.children.push(p);
        tree = p;
        break;
      }
      case T.TermsClose:
        tree = (tree.parent as Container).parent as Container;
        break;
      default:
        throw new GlobSyntaxError(`unexpected token: ${tok.raw}`);
    }
  }
}

function parseRange(tokens: readonly Token[], start: number, tree: Container): number {
  let not = false;
  let lo = "";
  let hi = "";
  let chars = "";
  for (let i = start; ; ) {
    const tok = tokens[i++]!;
    switch (tok.t) {
      case T.EOF:
        throw new GlobSyntaxError("unexpected end");
      case T.Error:
        throw new GlobSyntaxError(tok.raw);
      case T.Not:
        not = true;
        break;
      case T.RangeLo:
        lo = tok.raw;
        break;
      case T.RangeHi:
        hi = tok.raw;
        if (hi.codePointAt(0)! < lo.codePointAt(0)!) throw new GlobSyntaxError(`hi character '${hi}' should be greater than lo '${lo}'`);
        break;
      case T.Text:
        chars = tok.raw;
        break;
      case T.RangeClose: {
        const isRange = lo !== "" && lo !== "\u0000" && hi !== "" && hi !== "\u0000";
        if ((chars !== "") === isRange) throw new GlobSyntaxError("could not parse range");
        tree.children.push(isRange ? { kind: "range", lo, hi, not } : { kind: "list", chars, not });
        return i;
      }
      default:
        break;
    }
  }
}

/** A rune escaped for use inside an RE2 character class. */
function classEscape(s: string): string {
  return s.replace(/[\\\]\[^-]/g, "\\$&");
}

function toRegex(node: Node, seps: string): string {
  switch (node.kind) {
    case "pattern":
      return node.children.map((c) => toRegex(c, seps)).join("");
    case "anyOf":
      return `(?:${node.children.map((c) => toRegex(c, seps)).join("|")})`;
    case "text":
      return node.text.replace(/[\\.+*?()|[\]{}^$]/g, "\\$&");
    case "any":
      return seps === "" ? ".*" : `[^${seps}]*`;
    case "super":
      return ".*";
    case "single":
      return seps === "" ? "." : `[^${seps}]`;
    case "list":
      return `[${node.not ? "^" : ""}${classEscape(node.chars)}]`;
    case "range":
      return `[${node.not ? "^" : ""}${classEscape(node.lo)}-${classEscape(node.hi)}]`;
  }
}

type Matcher = ReturnType<RE2JS["re2"]>;

/** Compiled globs (and the errors of invalid ones) by pattern and delimiters. */
const cache = new LruCache<Matcher>(256);

function compileGlob(pattern: string, delimiters: readonly string[]): Matcher {
  const seps = delimiters.join("");
  return cache.get(`${pattern}\u0000${seps}`, () => goErrors(GlobSyntaxError, () => buildMatcher(pattern, seps)));
}

function buildMatcher(pattern: string, seps: string): Matcher {
  return RE2JS.compile(`(?s)\\A${toRegex(parse(lex(pattern)), classEscape(seps))}\\z`).re2();
}

/** Operand 2: null (no delimiters) or an array of one-rune strings; an empty array means ["."]. */
function delimiterOperand(v: Value): string[] {
  if (v === null) return [];
  if (!Array.isArray(v)) throw operandTypeError(2, v, "array", "null");
  const out: string[] = [];
  for (const d of arr(v, 2)) {
    if (typeof d !== "string") throw operandElementError(2, v, d, "string");
    if (Array.from(d).length !== 1) throw operandElementError(2, v, d, "rune");
    out.push(d);
  }
  return out.length === 0 ? ["."] : out;
}

function globMatch(_ctx: EvalContext, pattern: Value, delimiters: Value, match: Value): Value {
  const p = str(pattern, 1);
  const delims = delimiterOperand(delimiters);
  const s = str(match, 3);
  return compileGlob(p, delims).match(s) as boolean;
}

const GLOB_SPECIALS = /[*?\\[\]{}]/g;

/** gobwas's QuoteMeta: a backslash before each of * ? \ [ ] { }. */
function globQuoteMeta(_ctx: EvalContext, pattern: Value): Value {
  return str(pattern, 1).replace(GLOB_SPECIALS, "\\$&");
}

export const globBuiltins: BuiltinTable = {
  "glob.match": { fn: globMatch },
  "glob.quote_meta": { fn: globQuoteMeta },
};
