// The Rego frontend's first stage: source text → AST (compiler/ast/nodes.ts), with OPA's
// grammar (v1 by default, v0 by option) and OPA's parse errors. Nothing but RegoError ever
// leaves these functions: deep nesting is stopped by a depth limit that reports an error.
import type { Body, Module, Term } from "../ast/nodes.js";
import { isStackOverflow, RegoError, RegoErrors, sortErrors, type Location } from "../../runtime/errors.js";
import { plainLocation } from "./location.js";
import { DepthExceeded, MAX_DEPTH_MESSAGE, type ParseError } from "./parser/core.js";
import { ModuleParser } from "./parser/module.js";
import { Source } from "./source.js";
import { baseKeywords, futureKeywordsLogical, futureKeywordsV0, type TokenType } from "./token.js";

export interface ParseOptions {
  /** File name for locations (default ""). */
  file?: string;
  /** "v1" (default) or "v0" (`if`/`contains` optional, future keywords imported). */
  regoVersion?: "v0" | "v1";
  /** Activate every future keyword (as `import future.keywords`). */
  allFutureKeywords?: boolean;
  /** Activate these future keywords (as `import future.keywords.<kw>`); for queries, which
   * cannot import. "rego.v1" and "rego.v2" activate what `import rego.v1` / `import rego.v2` do. */
  futureKeywords?: string[];
  /** Nesting limit (default 3000 levels of the parser's recursion; about 300 nested brackets). */
  maxDepth?: number;
}

export const DEFAULT_MAX_DEPTH = 3000;

class Parser extends ModuleParser {
  parseRefText(text: string): Term | undefined {
    return parseTermResult(text, { file: this.source.file, regoVersion: this.options.regoVersion }).term;
  }
}

/** The keywords each version starts with (shared: the parser replaces, never mutates, a map). */
const v0Keywords: ReadonlyMap<string, TokenType> = new Map(baseKeywords);
const v1Keywords: ReadonlyMap<string, TokenType> = new Map([...baseKeywords, ...futureKeywordsV0]);

function newParser(text: string, options: ParseOptions): { parser: Parser; errors: ParseError[] } {
  const regoVersion = options.regoVersion ?? "v1";
  const keywords = regoVersion === "v1" ? v1Keywords : v0Keywords;
  const parser = new Parser(new Source(options.file ?? "", text), { regoVersion, maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH }, keywords);
  const errors: ParseError[] = [];
  if (options.allFutureKeywords) parser.addKeywords([...futureKeywordsV0.keys(), ...futureKeywordsLogical.keys()]);
  for (const kw of options.futureKeywords ?? []) {
    const name = kw.replace(/^future\.keywords\.?/, "");
    if (kw === "rego.v1") parser.addKeywords([...futureKeywordsV0.keys()]);
    else if (kw === "rego.v2") parser.addKeywords([...futureKeywordsV0.keys(), ...futureKeywordsLogical.keys()]);
    else if (name === "") parser.addKeywords([...futureKeywordsV0.keys(), ...futureKeywordsLogical.keys()]);
    else if (futureKeywordsV0.has(name) || futureKeywordsLogical.has(name)) parser.addKeywords([name]);
    else errors.push({ message: `unknown future keyword: ${name}`, location: parser.locAt(0, 0) });
  }
  return { parser, errors };
}

/** Runs a parse so that nothing but parse errors escape: a JS stack overflow (nesting the depth
 * limit did not catch) becomes the depth error, and a bug of ours an "internal error" report
 * (the fuzz tests make sure there is none). */
function guarded<T>(parser: Parser, fn: () => T): T | undefined {
  try {
    return fn();
  } catch (e) {
    if (e instanceof DepthExceeded) parser.error(e.location, MAX_DEPTH_MESSAGE);
    else if (isStackOverflow(e)) parser.error(parser.loc(), MAX_DEPTH_MESSAGE);
    else parser.error(parser.loc(), `${INTERNAL_ERROR}: ${(e as Error)?.message ?? String(e)}`);
    return undefined;
  }
}

/** The start of the message reported when the parser itself fails (a bug, never a user's). */
export const INTERNAL_ERROR = "internal error in the Rego parser";

/** A rego_parse_error: the parser's errors and the term parse's. */
function parseError(message: string, location: Location): RegoError {
  return new RegoError("rego_parse_error", message, location);
}

function toRegoErrors(errors: ParseError[]): RegoError[] {
  return sortErrors(errors.map((e) => parseError(e.message, plainLocation(e.location))));
}

export function parseModuleResult(text: string, options: ParseOptions = {}): { module?: Module; errors: RegoError[] } {
  const { parser, errors } = newParser(text, options);
  if (errors.length > 0) return { errors: toRegoErrors(errors) };
  const stmts = guarded(parser, () => parser.parseStatements(false)) ?? [];
  if (parser.errorCount > 0) return { errors: toRegoErrors(parser.errorList()) };
  const built = guarded(parser, () => parser.buildModule(stmts));
  if (!built || parser.errorCount > 0) return { errors: toRegoErrors(parser.errorList()) };
  if (built.errors.length > 0) return { errors: toRegoErrors(built.errors) };
  return { module: built.module!, errors: [] };
}

/** Parses a module; throws RegoErrors (every error, sorted by location). */
export function parseModule(text: string, options: ParseOptions = {}): Module {
  const { module, errors } = parseModuleResult(text, options);
  if (!module) throw new RegoErrors(errors);
  return module;
}

export function parseQueryResult(text: string, options: ParseOptions = {}): { body?: Body; errors: RegoError[] } {
  const { parser, errors } = newParser(text, options);
  if (errors.length > 0) return { errors: toRegoErrors(errors) };
  const stmts = guarded(parser, () => parser.parseStatements(true)) ?? [];
  if (parser.errorCount > 0) return { errors: toRegoErrors(parser.errorList()) };
  const body: Body = [];
  for (const s of stmts) {
    if (!Array.isArray(s)) {
      return { errors: toRegoErrors([{ message: `expected body but got ${s.type}`, location: s.location }]) };
    }
    for (const e of s) {
      e.index = body.length;
      body.push(e);
    }
  }
  return { body, errors: [] };
}

/** Parses a query (one or more expressions, `;` or newline separated); throws RegoErrors. */
export function parseQuery(text: string, options: ParseOptions = {}): Body {
  const { body, errors } = parseQueryResult(text, options);
  if (!body) throw new RegoErrors(errors);
  return body;
}

export function parseTermResult(text: string, options: ParseOptions = {}): { term?: Term; errors: RegoError[] } {
  const { body, errors } = parseQueryResult(text, options);
  if (!body) return { errors };
  const at = { file: options.file ?? "", row: 1, col: 1 };
  const only = body.length === 1 ? body[0]! : undefined;
  if (!only) return { errors: [parseError(`expected exactly one term but got ${body.length} expressions`, at)] };
  const t = only.terms;
  if (Array.isArray(t) || !("value" in t) || only.negated || only.with.length > 0) {
    return { errors: [parseError("expected term but got an expression", only.location ? plainLocation(only.location) : at)] };
  }
  return { term: t as Term, errors: [] };
}

/** Parses one term (e.g. an input written in Rego: `{"a": {1, 2}}`); throws RegoErrors. */
export function parseTerm(text: string, options: ParseOptions = {}): Term {
  const { term, errors } = parseTermResult(text, options);
  if (!term) throw new RegoErrors(errors);
  return term;
}

export { Source } from "./source.js";
export { SourceLocation } from "./location.js";
