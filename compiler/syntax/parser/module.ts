// Statements (package, import, rules, top-level bodies) and the module they make: OPA's Parse
// loop and parseModule, with rules from bodies, the v1 checks and METADATA annotations.
import type { Body, Import, Module, NodeLocation, Package, RegoVersion, Rule, Statement, Term } from "../../ast/nodes.js";
import { printRef } from "../../ast/print.js";
import { allFutureKeywords, baseKeywords, futureKeywordsLogical, futureKeywordsV0, tt, type TokenType, keywordsV0, keywordsV1 } from "../token.js";
import { attachAnnotations, parseAnnotationBlocks } from "./annotations.js";
import type { ParseError } from "./core.js";
import { checkRegoV1Rule, ruleFromBody } from "./fromBody.js";
import { recordLongestStatement } from "../nesting.js";
import { RuleParser } from "./rules.js";
import { assertNever } from "../../../runtime/errors.js";

/** Keywords `import future.keywords.x` can name, and their tokens. */
const allowedFutureKeywords: ReadonlyMap<string, TokenType> = new Map([...futureKeywordsV0, ...futureKeywordsLogical]);

/** The keywords an import's path is read with: every keyword set the parser uses is the base
 * keywords plus some future ones (index.ts, addKeywords), so without the future keywords it is
 * always this one (`import future.keywords.in` reads `in` as a name). Made once, not per import. */
const importPathKeywords: ReadonlyMap<string, TokenType> = new Map([...baseKeywords].filter(([k]) => !allowedFutureKeywords.has(k)));

export abstract class ModuleParser extends RuleParser {
  /** Where the statement being parsed starts, and the longest statement so far (see nesting.ts). */
  private statementStart = 0;
  private longestStatement = 0;

  /** Parses statements until the end of the input or the first statement that fails. */
  parseStatements(skipRules: boolean): Statement[] {
    const stmts: Statement[] = [];
    this.scan();
    const s = this.save();
    while (this.tok !== tt.eof) {
      // a new statement: nothing before it is parsed again (an empty map is left as it is:
      // clearing one still makes it a new table)
      if (this.cache.size > 0) this.cache.clear();
      this.saveInto(s);
      // (the statement before this one ended where this one starts, at the latest)
      if (s.start - this.statementStart > this.longestStatement) this.longestStatement = s.start - this.statementStart;
      this.statementStart = s.start;
      const pkg = this.parsePackage();
      if (pkg) {
        stmts.push(pkg);
        continue;
      }
      if (this.errorCount > 0) break;
      // (restored, the state is `s` again: no need to save it anew)
      this.restore(s);
      const imp = this.parseImport();
      if (imp) {
        const root = imp.path.type === "ref" ? imp.path.value[0] : undefined;
        if (root?.type === "var" && root.value === "rego") this.regoImport(imp);
        if (root?.type === "var" && root.value === "future") this.futureImport(imp);
        stmts.push(imp);
        continue;
      }
      if (this.errorCount > 0) break;
      this.restore(s);
      if (!skipRules) {
        const rules = this.parseRules();
        if (rules) {
          stmts.push(...rules);
          continue;
        }
        if (this.errorCount > 0) break;
        this.restore(s);
      }
      const body = this.parseQuery(true, tt.eof);
      if (body) {
        stmts.push(body);
        continue;
      }
      break;
    }
    if (this.lastEnd - this.statementStart > this.longestStatement) this.longestStatement = this.lastEnd - this.statementStart;
    return stmts;
  }

  private parsePackage(): Package | undefined {
    if (this.tok !== tt.package) return undefined;
    const loc = this.loc();
    this.scanWS();
    // `package.x` / `package[x]` is a ref, not a package statement
    if (this.tok === tt.dot || this.tok === tt.bracketL) return undefined;
    if (this.tok === tt.whitespace) this.scan();
    if (!this.isIdentOrAllowedRefKeyword()) {
      this.illegal();
      return undefined;
    }
    const term = this.parseTerm();
    let path: Term[] | undefined;
    if (term) {
      if (term.type === "var") {
        path = [dataVar(term.location), { type: "string", value: term.value, location: term.location }];
      } else if (term.type === "ref") {
        const [first, ...rest] = term.value;
        if (first!.type !== "var") {
          this.error(first!.location, `unexpected ${first!.type} token: expecting var`);
          return undefined;
        }
        for (const t of rest) {
          if (t.type !== "string") {
            this.error(t.location, `unexpected ${t.type} token: expecting string`);
            return undefined;
          }
        }
        // (concat: a list of exactly its length, see lists.ts)
        path = [dataVar(first!.location), { type: "string", value: first!.value, location: first!.location } as Term].concat(rest);
      } else {
        this.illegal();
        return undefined;
      }
    }
    if (!path) {
      if (this.errorCount === 0) this.error(this.loc(), "expected path");
      return undefined;
    }
    return { type: "package", path, location: this.span(loc, loc.offset, this.lastEnd) };
  }

  private parseImport(): Import | undefined {
    if (this.tok !== tt.import) return undefined;
    const loc = this.loc();
    this.scanWS();
    if (this.tok === tt.dot || this.tok === tt.bracketL) return undefined;
    if (this.tok === tt.whitespace) this.scan();
    if (!this.isIdentOrAllowedRefKeyword()) {
      this.illegal();
      return undefined;
    }
    // the path is read without the future keywords: `import future.keywords.in`
    let path: Term | undefined;
    let bad = false;
    this.withKeywords(importPathKeywords, () => {
      const term = this.parseTerm();
      if (!term) return;
      if (term.type === "var") path = { type: "ref", value: [term], location: term.location };
      else if (term.type === "ref") {
        for (let i = 1; i < term.value.length; i++) {
          const t = term.value[i]!;
          if (t.type !== "string") {
            this.error(t.location, `unexpected ${t.type} token: expecting string`);
            bad = true;
            return;
          }
        }
        path = term;
      }
    });
    if (bad) return undefined;
    if (!path || path.type !== "ref") {
      this.error(this.loc(), "expected path");
      return undefined;
    }
    const ref = path.value;
    const root = ref[0]!;
    const rootName = root.type === "var" ? root.value : "";
    if (!["data", "input", "future", "rego"].includes(rootName) || root.type !== "var") {
      this.hint("if this is unexpected, try updating OPA");
      this.error(path.location, `unexpected import path, must begin with one of: {data, future, input, rego}, got: ${printRef([root], false)}`);
      return undefined;
    }
    const imp: Import = { type: "import", path, location: loc };
    if (this.tok === tt.as) {
      this.scan();
      if (this.tok !== tt.ident) {
        this.illegal("expected var");
        return undefined;
      }
      const alias = this.parseTerm();
      if (alias?.type !== "var") {
        this.illegal("expected var");
        return undefined;
      }
      imp.alias = alias.value;
      imp.location = this.span(loc, loc.offset, this.lastEnd);
      return imp;
    }
    // the name an import binds cannot be a keyword (future imports aside)
    const keywords = this.v1 ? keywordsV1 : keywordsV0;
    const last = ref[ref.length - 1]!;
    if ((ref.length === 1 || rootName !== "future") && (last.type === "var" || last.type === "string") && keywords.has(last.value)) {
      this.hint("import a different path or use an alias");
      this.error(last.location, `unexpected import path, must not end with a keyword, got: ${last.value}`);
    }
    imp.location = this.span(loc, loc.offset, this.lastEnd);
    return imp;
  }

  /** `import future.keywords[.kw]`: activates keywords. */
  private futureImport(imp: Import): void {
    const path = (imp.path as Term & { type: "ref" }).value;
    const second = path[1];
    if (path.length === 1 || second?.type !== "string" || second.value !== "keywords") {
      this.error(imp.path.location, "invalid import, must be `future.keywords`");
      return;
    }
    if (imp.alias) {
      this.error(imp.path.location, "`future` imports cannot be aliased");
      return;
    }
    let names = [...allowedFutureKeywords.keys()];
    if (path.length === 3) {
      const kw = path[2]!;
      if (kw.type !== "string") {
        this.error(imp.path.location, "invalid import, must be `future.keywords.x`, e.g. `import future.keywords.in`");
        return;
      }
      if (!allowedFutureKeywords.has(kw.value)) {
        this.error(imp.path.location, `unexpected keyword, must be one of [${allFutureKeywords.join(" ")}]`);
        return;
      }
      names = [kw.value];
    }
    this.addKeywords(names);
  }

  /** `import rego.v1`: in v0 modules, the v1 keywords (and the v1 checks). `import rego.v2`:
   * rego.v1 plus the logical keywords (`and`, `or`, `not`), in either version. */
  private regoImport(imp: Import): void {
    const version = regoImportVersion(imp);
    if (!version) {
      const path = (imp.path as Term & { type: "ref" }).value;
      this.error(imp.path.location, `invalid import \`${printRef(path, false)}\`, must be \`rego.v1\``);
      return;
    }
    // rego.v1 changes nothing in a v1 module (aliased or not); rego.v2 still brings keywords
    if (this.v1 && version === "v1") return;
    if (imp.alias) {
      this.error(imp.path.location, "`rego` imports cannot be aliased");
      return;
    }
    const names = this.v1 ? [] : [...futureKeywordsV0.keys()];
    if (version === "v2") names.push(...futureKeywordsLogical.keys());
    this.addKeywords(names);
  }

  /** Activates keywords; `every` brings `in` along, `not` the `not (...)` groups. */
  addKeywords(names: string[]): void {
    const next = new Map(this.keywords);
    for (const n of names) {
      if (n === "not") this.notGroups = true;
      else next.set(n, allowedFutureKeywords.get(n)!);
      if (n === "every") next.set("in", tt.in);
    }
    this.keywords = next;
  }

  /** OPA's parseModule: statements → module, with rules from bodies and the v1 checks. */
  buildModule(stmts: Statement[]): { module?: Module; errors: ParseError[] } {
    const errors: ParseError[] = [];
    const fileLoc = this.locAt(0, 0);
    if (stmts.length === 0) return { errors: [{ message: "empty module", location: fileLoc }] };
    const first = stmts[0]!;
    let pkg: Package | undefined;
    if (!Array.isArray(first) && first.type === "package") pkg = first;
    else errors.push({ message: "package expected", location: stmtLocation(first) });
    let regoVersion: RegoVersion = this.v1 ? "v1" : "v0";
    const imports: Import[] = [];
    const rules: Rule[] = [];
    const located: (Package | Rule | Import)[] = pkg ? [pkg] : [];
    const comments = this.commentList();
    for (let i = 1; i < stmts.length; i++) {
      const stmt = stmts[i]!;
      if (Array.isArray(stmt)) {
        const r = ruleFromBody(stmt);
        if ("error" in r) {
          let message = r.error;
          const next = stmts[i + 1];
          if (!this.v1 && isVarBody(stmt) && next && !Array.isArray(next) && next.type === "rule" && next.head.name === "if") {
            message += " (hint: `import future.keywords.if` for `p if { ... }` rules)";
          }
          errors.push({ message, location: stmt[0]!.location });
          continue;
        }
        rules.push(r.rule);
        located.push(r.rule);
        continue;
      }
      switch (stmt.type) {
        case "import":
          imports.push(stmt);
          located.push(stmt);
          if (regoVersion === "v0" && regoImportVersion(stmt) !== undefined) regoVersion = "v0v1";
          break;
        case "rule":
          rules.push(stmt);
          located.push(stmt);
          break;
        case "package":
          errors.push({ message: "unexpected package", location: stmt.location });
          break;
        case "annotations":
          break;
        default:
          assertNever(stmt);
      }
    }
    if (regoVersion !== "v0") {
      for (const rule of rules) for (let r: Rule | undefined = rule; r; r = r.else) errors.push(...checkRegoV1Rule(r));
    }
    if (errors.length > 0 || !pkg) return { errors };
    const parsed = parseAnnotationBlocks(comments, (text) => this.parseRefText(text));
    if (parsed.errors.length > 0) return { errors: parsed.errors };
    const attachErrors = attachAnnotations(parsed.annotations, located);
    if (attachErrors.length > 0) return { errors: attachErrors };
    attachRuleAnnotations(parsed.annotations, rules);
    // (copies of exactly their length: they grew side by side, so not on the list stack)
    const module: Module = { type: "module", package: pkg, imports: imports.slice(), rules: rules.slice(), annotations: parsed.annotations, comments, regoVersion };
    recordLongestStatement(module, this.longestStatement);
    return { module, errors: [] };
  }

  /** Parses `text` as one term (used for refs inside METADATA). */
  abstract parseRefText(text: string): Term | undefined;
}

/** "v1" for `import rego.v1`, "v2" for `import rego.v2`, else undefined. */
function regoImportVersion(imp: Import): "v1" | "v2" | undefined {
  const path = imp.path.type === "ref" ? imp.path.value : undefined;
  if (path?.length !== 2 || path[0]!.type !== "var" || path[0]!.value !== "rego") return undefined;
  const v = path[1]!;
  return v.type === "string" && (v.value === "v1" || v.value === "v2") ? v.value : undefined;
}

function dataVar(at: NodeLocation): Term {
  return { type: "var", value: "data", location: at };
}

function stmtLocation(s: Statement): NodeLocation {
  return Array.isArray(s) ? s[0]!.location : s.location;
}

function isVarBody(b: Body): boolean {
  const t = b.length === 1 ? b[0]!.terms : undefined;
  return t !== undefined && !Array.isArray(t) && t.type === "var";
}

/** Rule-scoped annotations go to their rule; document-scoped ones to every rule of the same
 * document (same package and ground ref prefix). */
function attachRuleAnnotations(annotations: Module["annotations"], rules: Rule[]): void {
  let byPath: Map<string, Rule[]> | undefined;
  for (const a of annotations) {
    if (a.scope === "rule" && a.target?.type === "rule") attach(a.target, a);
    if (a.scope === "document" && a.target?.type === "rule") {
      if (!byPath) {
        byPath = new Map();
        for (const r of rules) {
          const key = groundPrefix(r.head.reference);
          const list = byPath.get(key);
          if (list) list.push(r);
          else byPath.set(key, [r]);
        }
      }
      for (const r of byPath.get(groundPrefix(a.target.head.reference)) ?? []) attach(r, a);
    }
  }
}

/** Adds an annotation to a rule's list (a new list: the empty one is shared, see shared.ts). */
function attach(rule: Rule, a: Module["annotations"][number]): void {
  rule.annotations = [...rule.annotations, a];
}

function groundPrefix(ref: Term[]): string {
  const out: string[] = [];
  for (const t of ref) {
    if (t.type !== "var" && t.type !== "string") break;
    if (out.length > 0 && t.type === "var") break;
    out.push(t.value);
  }
  return out.join(".");
}
