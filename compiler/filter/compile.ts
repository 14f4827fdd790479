// compileFilter: OPA's compile API in process. The query `data.<path>` is partially evaluated
// with the unknowns (the request's, else those of the `compile:` METADATA annotations covering
// the rule), the mask rule (the request's, else the annotations') is evaluated fully, and the
// residuals are translated for the target(s).
import type { Module, Ref } from "../ast/nodes.js";
import { printRef } from "../ast/print.js";
import { compiledProgram } from "../partial/program.js";
import { partialEval } from "../partial/index.js";
import { parseTermResult } from "../syntax/index.js";
import { RegoError } from "../../runtime/errors.js";
import { fragmentError, invalidMaskRuleError, invalidParameterError, invalidUnknownError, unknownsParseError } from "./errors.js";
import type { JSONValue } from "../../runtime/value/json.js";
import { checkUnknown, compileAnnotations, resolveMaskRule, translate, type CompileAnnotations, type CompileFilterResponse, type TranslateOptions } from "./index.js";

export interface CompileFilterOptions extends Omit<TranslateOptions, "masks"> {
  /** The known input. */
  input?: unknown;
  /** Refs unknown to the filter (`input.fruits`); default: the `compile:` annotations' unknowns. */
  unknowns?: string[];
  /** The rule whose value is the masks (`data.filters.masks`, or `masks` in the path's package);
   * default: the `compile:` annotations' mask_rule. */
  maskRule?: string;
  /** Rule refs partial evaluation must not inline (OPA's disableInlining). */
  disableInlining?: string[];
}

export interface FilterSources {
  modules: Readonly<Record<string, string>>;
  v0Compatible: boolean;
  data: unknown;
  /** Evaluates a query fully (the mask rule), answering its value or undefined. */
  evaluate(query: string, input: unknown): Promise<JSONValue | undefined>;
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `filters/include` (OPA's URL form) or `data.filters.include` → the rule's path segments. */
export function filterPath(path: string): string[] {
  if (typeof path !== "string" || path.trim() === "") throw invalidParameterError("compileFilter: missing required 'path' parameter");
  if (path === "data" || path.startsWith("data.") || path.startsWith("data[")) {
    const r = parseTermResult(path);
    const t = r.term;
    if (t?.type !== "ref" || !t.value.slice(1).every((p) => p.type === "string")) {
      throw invalidParameterError(`compileFilter: invalid path ${JSON.stringify(path)}: expected a rule path such as filters/include`);
    }
    return t.value.slice(1).map((p) => String(p.value));
  }
  return path.split("/").filter((s) => s !== "");
}

function queryOf(segments: readonly string[]): string {
  return "data" + segments.map((s) => (IDENT.test(s) ? `.${s}` : `[${JSON.stringify(s)}]`)).join("");
}

export async function compileFilter(src: FilterSources, path: string, options: CompileFilterOptions): Promise<CompileFilterResponse> {
  const segments = filterPath(path);
  const query = queryOf(segments);
  let unknowns = options.unknowns;
  let maskRule: Ref | string | undefined = options.maskRule;
  if (unknowns !== undefined) checkRequestUnknowns(unknowns);
  if (!unknowns?.length || maskRule === undefined) {
    const ann = annotationsOf(compiledProgram(src.modules, src.v0Compatible).ctx.modules, segments);
    if (!unknowns?.length) unknowns = ann.unknowns.map((r) => printRef(r, false));
    if (maskRule === undefined && ann.maskRule) maskRule = ann.maskRule;
  }
  // without unknowns, partial evaluation is a full one: the filter would be all or nothing
  if (!unknowns?.length) {
    throw invalidUnknownError(
      `compileFilter: no unknowns for ${query}: pass unknowns (such as ["input.fruits"]) or declare them in the rule's METADATA (compile: unknowns: [input.fruits])`,
    );
  }
  let masks: JSONValue | undefined;
  if (maskRule !== undefined) {
    const ref = typeof maskRule === "string" ? maskRuleRef(maskRule, segments) : maskRule;
    masks = await src.evaluate(printRef(ref, false), options.input);
  }
  const partial = await partialEvaluation({
    modules: src.modules,
    query,
    ...(options.input !== undefined ? { input: options.input } : {}),
    data: src.data,
    unknowns,
    ...(options.disableInlining ? { disableInlining: options.disableInlining } : {}),
    v0Compatible: src.v0Compatible,
  });
  return translate(partial, {
    target: options.target,
    ...(options.targetDialects ? { targetDialects: options.targetDialects } : {}),
    ...(options.tableMappings ? { tableMappings: options.tableMappings } : {}),
    ...(masks !== undefined ? { masks } : {}),
  });
}

/** partialEval, with what it cannot evaluate (every over an unknown, ...) reported as outside the
 * fragment: pe_fragment_error, as OPA's compile API reports such expressions. */
async function partialEvaluation(options: Parameters<typeof partialEval>[0]): ReturnType<typeof partialEval> {
  try {
    return await partialEval(options);
  } catch (e) {
    if (!(e instanceof RegoError) || e.code !== "pe_unsupported") throw e;
    throw fragmentError(e.location, e.message, "a filter compares one row's fields with known values", e);
  }
}

/** The request's unknowns: strings that parse as refs rooted at input or data. */
function checkRequestUnknowns(unknowns: unknown): void {
  if (!Array.isArray(unknowns)) throw unknownsParseError("expected an array of refs such as input.fruits");
  for (const u of unknowns) {
    const t = typeof u === "string" ? parseTermResult(u).term : undefined;
    if (t?.type !== "ref") throw unknownsParseError(`${JSON.stringify(u)} is not a ref such as input.fruits`);
    checkUnknown(t.value);
  }
}

/** A cache, keyed by the compiled program's modules: the compile: annotations of a path, read
 * once per program. */
const annotationCache = new WeakMap<readonly Module[], Map<string, CompileAnnotations>>();
function annotationsOf(modules: readonly Module[], segments: readonly string[]): CompileAnnotations {
  let byPath = annotationCache.get(modules);
  if (!byPath) annotationCache.set(modules, (byPath = new Map()));
  const key = JSON.stringify(segments);
  let a = byPath.get(key);
  if (!a) byPath.set(key, (a = compileAnnotations(modules, segments)));
  return a;
}

/** A mask rule from a request: `data.filters.masks`, or `masks` relative to the path's package. */
function maskRuleRef(text: string, segments: readonly string[]): Ref {
  const r = parseTermResult(text);
  const t = r.term;
  const ref: Ref | undefined = t?.type === "ref" ? t.value : t?.type === "var" ? [t] : undefined;
  if (!ref) throw invalidMaskRuleError(`compileFilter: mask rule ${JSON.stringify(text)} is not a rule ref such as data.filters.masks`);
  return resolveMaskRule(ref, segments.slice(0, -1));
}
