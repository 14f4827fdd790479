// Test discovery, as OPA's tester does it (v1/tester/runner.go): a rule is a test when a term of
// its head ref's ground prefix starts with `test_` (run) or `todo_test_` (skipped); the test is
// the ref up to that term (`test_x`, or `p.q.test_x` for a ref head), evaluated as
// `data.<package>.<ref>`. Rules defined more than once under the same test name (several bodies,
// or the same name twice) are separate tests: the second is renamed `test_x#01`, the third
// `test_x#02`, ... (OPA's RewriteDuplicateTestNames). Since our compiler reads source text, the
// renaming is an edit of the source at the name's location, to an identifier no one writes
// (`test_x__regoc_dup01`); reports show OPA's `#01` form. Functions and default rules are not
// tests.
import type { Module, Rule, Term } from "../ast/nodes.js";
import { printRef } from "../ast/print.js";
import { parseModuleResult } from "../syntax/index.js";
import { RegoError, RegoErrors } from "../../runtime/errors.js";

export const TEST_PREFIX = "test_";
export const SKIP_PREFIX = "todo_test_";

export interface TestCase {
  file: string;
  location: { file: string; row: number; col: number };
  /** The package as OPA prints it: `data.authz`. */
  package: string;
  /** The test's name as OPA prints it: `test_x`, `test_x#01`, `p.q.test_x`. */
  name: string;
  /** `data.authz.test_x`: what --run matches. */
  fullName: string;
  /** The plan entrypoint (`authz/test_x`); undefined for skipped tests. */
  entrypoint: string;
  skip: boolean;
  /** A partial-object test (`test_x[note] if ...`): its keys are sub-results. */
  partialObject: boolean;
  /** The test's rule (its first body) and module, as parsed: what --explain re-evaluates. */
  rule: Rule;
  module: Module;
}

export interface Discovered {
  /** The sources to compile (duplicate test names renamed). */
  modules: Record<string, string>;
  /** Every test, in file order then source order. */
  tests: TestCase[];
  /** The modules as parsed, by file (before any renaming: the same rows). */
  parsed: Record<string, Module>;
}

interface Edit {
  offset: number;
  length: number;
  text: string;
}

/** Parses every module (throws RegoErrors with every parse error) and finds the tests. */
export function discoverTests(sources: Readonly<Record<string, string>>, v0: boolean): Discovered {
  const parsed: Module[] = [];
  const errors: RegoError[] = [];
  const files = Object.keys(sources).sort();
  for (const file of files) {
    const r = parseModuleResult(sources[file]!, { file, regoVersion: v0 ? "v0" : "v1" });
    if (r.module) parsed.push(r.module);
    errors.push(...r.errors);
  }
  if (errors.length > 0) throw new RegoErrors(errors);

  const counts = new Map<string, number>();
  const tests: TestCase[] = [];
  const modules: Record<string, string> = {};
  parsed.forEach((mod, i) => {
    const file = files[i]!;
    const edits: Edit[] = [];
    const pkgPath = mod.package.path.slice(1);
    const pkg = printRef(mod.package.path, true);
    const seenHeads = new Set<number>();
    for (const rule of mod.rules) {
      const found = testTerm(rule);
      if (!found) continue;
      const { index, name } = found;
      // `test_x if {...} {...}` parses as rules sharing one head: one test (its bodies are ORed).
      const headOffset = rule.head.reference[index]!.location.offset;
      if (seenHeads.has(headOffset)) continue;
      seenHeads.add(headOffset);
      const ref = rule.head.reference.slice(0, index + 1);
      const key = `${pkg}.${printRef(ref, false)}`;
      const n = counts.get(key) ?? 0;
      counts.set(key, n + 1);
      const skip = name.startsWith(SKIP_PREFIX);
      let shown = ref;
      let planned = ref;
      if (n > 0 && !skip) {
        const suffix = String(n).padStart(2, "0");
        const term = ref[index]!;
        edits.push(renameEdit(term, name, `${name}__regoc_dup${suffix}`));
        shown = withName(ref, index, `${name}#${suffix}`);
        planned = withName(ref, index, `${name}__regoc_dup${suffix}`);
      }
      const display = printRef(shown, false);
      tests.push({
        file,
        location: { file, row: rule.location.row, col: rule.location.col },
        package: pkg,
        name: display,
        fullName: `${pkg}.${display}`,
        entrypoint: [...pkgPath, ...planned].map(segment).join("/"),
        skip,
        partialObject: rule.head.reference.length > index + 1 && rule.head.value !== undefined,
        rule,
        module: mod,
      });
    }
    modules[file] = applyEdits(sources[file]!, edits);
  });
  return { modules, tests, parsed: Object.fromEntries(parsed.map((m, i) => [files[i]!, m])) };
}

/** The index and name of the head ref's first ground term named test_* / todo_test_*. */
function testTerm(rule: Rule): { index: number; name: string } | undefined {
  if (rule.default || (rule.head.args?.length ?? 0) > 0) return undefined;
  const ref = rule.head.reference;
  for (let i = 0; i < ref.length; i++) {
    const t = ref[i]!;
    if (i > 0 && t.type !== "string") return undefined; // end of the ground prefix
    if (t.type !== "var" && t.type !== "string") return undefined;
    if (t.value.startsWith(TEST_PREFIX) || t.value.startsWith(SKIP_PREFIX)) return { index: i, name: t.value };
  }
  return undefined;
}

function withName(ref: Term[], index: number, name: string): Term[] {
  const out = ref.slice();
  const t = out[index]!;
  out[index] = { ...t, value: name } as Term;
  return out;
}

function segment(t: Term): string {
  if (t.type === "var" || t.type === "string") return t.value;
  throw unsupportedTestRefError(t);
}

function renameEdit(term: Term, name: string, newName: string): Edit {
  const text = term.location.text;
  const at = text.indexOf(name);
  if (at < 0) throw duplicateTestRenameError(term, name);
  return { offset: term.location.offset + at, length: name.length, text: newName };
}

function applyEdits(source: string, edits: Edit[]): string {
  let out = source;
  for (const e of edits.sort((a, b) => b.offset - a.offset)) {
    out = out.slice(0, e.offset) + e.text + out.slice(e.offset + e.length);
  }
  return out;
}

function unsupportedTestRefError(t: Term): RegoError {
  return new RegoError("rego_compile_error", `unsupported test ref term ${t.type}`, t.location);
}

function duplicateTestRenameError(term: Term, name: string): RegoError {
  return new RegoError("rego_compile_error", `cannot rename duplicate test ${name}`, term.location);
}
