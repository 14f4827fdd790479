// The module, built with ts-morph: its declarations — the imports (the runtime's "regoc/eval", the
// builtin categories' "regoc/builtins/<category>") and every function
// (name, modifiers, parameters, return type) — come from ts-morph structures in ONE
// `createSourceFile` call, and ts-morph owns their layout (order, blank lines, indentation).
// Every piece of text in a structure is Code rendered by code.ts or a Name, so nothing
// policy-derived reaches the module except through lit() and the identifier function.
//
// Everything else is text already laid out by code.ts: header comments, type aliases, module
// constants, each function's doc comment and body, the entrypoint table. Handing them to ts-morph
// would only make it print them through its writer, re-parse them, and (for comments between
// statements) re-scan them when the file is dropped. So the skeleton holds the structured
// declarations only, and each piece of text is placed by a position ts-morph's AST gives — never a
// text search, so no string in the policy can steer where anything goes:
//   header comments          at the start of the file
//   type aliases, constants  after the import declaration, one per line
//   a function's doc comment just before the function
//   a function's body        between the braces of its empty body
//   the entrypoint table     after the last function, a blank line between
//
// A module to be loaded, not read, is laid out as JavaScript by `JavaScriptLayout`: the same parts
// with the types left out (the emitter wrote its statements without annotations), one line per
// declaration, no ts-morph and no esbuild pass to strip what was never written. Its function-body
// form lays out those very parts as the body of a function (what `loadModule` compiles, without
// Node's module loader): no import — the runtime names are the function's parameters — no
// `export`, and a final `return` of the exports.
import { createRequire } from "node:module";
import type * as TsMorph from "ts-morph";
import type { Project, StatementStructures } from "ts-morph";
import type { Code, Name } from "./code.js";
import type { FunctionParts } from "./emit/functions.js";

/** A module-level `const` (with further names declared in the same statement, if `more`). */
export interface ModuleConst {
  name: Name;
  type?: Code;
  init: Code;
  more?: ReadonlyArray<{ name: Name; init: Code }>;
  exported?: boolean;
  doc?: Code;
}

/** The module generated code imports its runtime from. */
export const RUNTIME_MODULE = "regoc/eval";
/** Where generated code imports a builtin category from (`regoc/builtins/<category>`). */
export const BUILTINS_MODULE = "regoc/builtins/";

export interface ModuleParts {
  header: Code[];
  /** From RUNTIME_MODULE. */
  imports: Array<{ name: string; typeOnly: boolean }>;
  /** The builtin categories the module calls: `name` from module `from` (none in a function body,
   * whose builtins the registry resolves). */
  builtinImports: Array<{ name: string; from: string }>;
  typeAliases: Array<{ name: Name; type: Code; exported: boolean; doc?: Code; /** Type parameters, e.g. `<T>`. */ params?: string }>;
  consts: ModuleConst[];
  /** Trailing constants (the entrypoint table), after the functions they refer to. */
  tail: ModuleConst[];
}

/** A function to place: its parts, the body rendered (its statements one level in). */
interface ModuleFunction extends Omit<FunctionParts, "body"> {
  body: string;
}

/**
 * How a language lays out a module: each function is handed over as soon as it is emitted
 * (`add`), which renders its body, so that its pieces die young and the next body borrows the
 * pieces array; the rest of the module comes once every function is in (`build`).
 */
interface ModuleLayout {
  add(f: FunctionParts): void;
  build(parts: ModuleParts): BuiltModule;
}

/** The layout of each language (GenerateOptions.language), made afresh for each module. */
export const LAYOUTS = {
  typescript: (): ModuleLayout => new TypeScriptLayout(),
  javascript: (): ModuleLayout => new JavaScriptLayout(true),
  function: (): ModuleLayout => new JavaScriptLayout(false),
} as const;

class TypeScriptLayout implements ModuleLayout {
  private readonly functions: ModuleFunction[] = [];

  add(f: FunctionParts): void {
    this.functions.push({ ...f, body: f.body.render(1) });
  }

  build(parts: ModuleParts): BuiltModule {
    return buildModule(parts, this.functions);
  }
}

/** A cache (module state on purpose): ts-morph, loaded on first use. It brings the TypeScript
 * compiler, slow to load, which a module generated as JavaScript never needs. */
let tsMorph: typeof TsMorph | undefined;

function morph(): typeof TsMorph {
  return (tsMorph ??= createRequire(import.meta.url)("ts-morph") as typeof TsMorph);
}

/** A cache (module state on purpose): one in-memory project for every module (creating a Project
 * costs more than a module). */
let project: Project | undefined;

function getProject(): Project {
  const { IndentationText, NewLineKind, Project, QuoteKind } = morph();
  return (project ??= new Project({
    useInMemoryFileSystem: true,
    skipLoadingLibFiles: true,
    manipulationSettings: {
      indentationText: IndentationText.TwoSpaces,
      newLineKind: NewLineKind.LineFeed,
      quoteKind: QuoteKind.Double,
      useTrailingCommas: true,
    },
  }));
}

function constText(c: ModuleConst, typed = true, exporting = true): string {
  const exp = c.exported && exporting ? "export " : "";
  const type = c.type && typed ? `: ${c.type.text}` : "";
  // (TypeScript, for people: one name a line; JavaScript: one line.)
  const more = c.more ? c.more.map((d) => `${typed ? ",\n  " : ", "}${d.name.text} = ${d.init.text}`).join("") : "";
  return `${c.doc ? `${c.doc.text}\n` : ""}${exp}const ${c.name.text}${type} = ${c.init.text}${more};`;
}

function typeAliasText(t: ModuleParts["typeAliases"][number]): string {
  return `${t.doc ? `${t.doc.text}\n` : ""}${t.exported ? "export " : ""}type ${t.name.text}${t.params ?? ""} = ${t.type.text};`;
}

function functionStructure(f: ModuleFunction): StatementStructures {
  return {
    kind: morph().StructureKind.Function,
    isExported: f.isExported,
    isAsync: f.isAsync,
    name: f.name.text,
    parameters: f.params.map((p) => ({ name: p.name.text, type: p.type.text, hasQuestionToken: p.optional === true })),
    returnType: f.returnType.text,
    statements: [],
  };
}

interface BuiltModule {
  code: string;
  /** Where each function starts in `code` (its doc comment in TypeScript, its `function`, `async` or `export` keyword in JavaScript), ascending. */
  functionStarts: number[];
}

function buildModule(parts: ModuleParts, functions: readonly ModuleFunction[]): BuiltModule {
  const project = getProject();
  const { StructureKind, ts } = morph();
  const importStructures: StatementStructures[] = [
    { kind: StructureKind.ImportDeclaration, moduleSpecifier: RUNTIME_MODULE, namedImports: parts.imports.map((i) => ({ name: i.name, isTypeOnly: i.typeOnly })) },
    ...parts.builtinImports.map((i): StatementStructures => ({ kind: StructureKind.ImportDeclaration, moduleSpecifier: i.from, namedImports: [i.name] })),
  ];
  const file = project.createSourceFile("module.ts", { statements: [...importStructures, ...functions.map(functionStructure)] }, { overwrite: true });
  const skeleton = file.getFullText();
  // (The compiler nodes are read directly: wrapping thousands of them in ts-morph nodes costs more
  // than building the module.)
  const sf = file.compilerNode;
  const importDecls = sf.statements.slice(0, importStructures.length);
  const decls = sf.statements.slice(importStructures.length);
  const lastImport = importDecls[importDecls.length - 1];
  if (!lastImport || !importDecls.every(ts.isImportDeclaration) || decls.length !== functions.length || !decls.every(ts.isFunctionDeclaration)) {
    throw new Error("internal: unexpected statements in the module skeleton");
  }
  // The module is the skeleton cut at those positions (ascending) with the text put in between,
  // collected in `out` and joined into one segment per top-level region: everything before the
  // first function, each function (from its doc comment), the rest.
  const segments: string[] = [];
  const out: string[] = [];
  const endSegment = () => {
    segments.push(out.join(""));
    out.length = 0;
  };
  let from = 0;
  const upTo = (pos: number) => {
    out.push(skeleton.slice(from, pos));
    from = pos;
  };
  for (const h of parts.header) out.push(h.text, "\n");
  upTo(lastImport.end);
  for (const t of parts.typeAliases) out.push("\n", typeAliasText(t));
  for (const c of parts.consts) out.push("\n", constText(c));
  decls.forEach((decl, i) => {
    const f = functions[i]!;
    upTo(decl.getStart(sf));
    endSegment();
    out.push(f.doc.text, "\n");
    const block = decl.body!;
    upTo(block.getStart(sf) + 1); // just after `{`
    // The skeleton's empty body is `{\n}`: the rendered statements go on the lines in between.
    out.push("\n");
    if (f.body !== "") out.push(f.body, "\n");
    from = block.end - 1; // at `}`
  });
  upTo(sf.statements[sf.statements.length - 1]!.end);
  parts.tail.forEach((c, i) => out.push(i === 0 ? "\n\n" : "\n", constText(c)));
  upTo(skeleton.length);
  endSegment();
  project.removeSourceFile(file);
  const functionStarts: number[] = [];
  let at = segments[0]!.length;
  for (let i = 1; i < segments.length; i++) {
    functionStarts.push(at);
    at += segments[i]!.length;
  }
  return { code: segments.join(""), functionStarts };
}

/** Functions' text is joined into chunks of at least this many characters as it comes: strings
 * this long are allocated in V8's large-object space, which the young-generation GC never copies,
 * and each body's own string dies young (hot, see bench/frontend.bench.ts). */
const CHUNK = 1 << 17;

/**
 * The module as JavaScript (see the top of this file): header, the runtime import (without its
 * type-only names), constants, functions, the entrypoint table. Or (not `exporting`) the same as
 * the body of a function, for `loadModule`: its parameters are the runtime's value names
 * (GeneratedModule.runtimeImports), `"use strict"` (a module's code is strict and a function's is
 * not), no `export`, and it returns the exports in an object without a prototype, as a module
 * namespace has none.
 */
class JavaScriptLayout implements ModuleLayout {
  /** The functions' text so far: whole chunks, then the pieces of the one being filled. */
  private readonly chunks: string[] = [];
  private readonly pieces: string[] = [];
  /** Characters in `pieces`. */
  private pending = 0;
  /** Characters of the functions so far. */
  private length = 0;
  /** Where each function starts, from the first function. */
  private readonly starts: number[] = [];
  private readonly exportedFunctions: string[] = [];

  /** `exporting`: an ES module; else a function body. */
  constructor(private readonly exporting: boolean) {}

  add(f: FunctionParts): void {
    const body = f.body.render();
    const head = `${f.isExported && this.exporting ? "export " : ""}${f.isAsync ? "async " : ""}function ${f.name.text}(${f.params.map((p) => p.name.text).join(", ")}) {\n`;
    this.starts.push(this.length);
    if (body === "") this.pieces.push(head, "}\n");
    else this.pieces.push(head, body, "\n}\n");
    const n = head.length + (body === "" ? 2 : body.length + 3);
    this.length += n;
    this.pending += n;
    if (f.isExported) this.exportedFunctions.push(f.name.text);
    if (this.pending >= CHUNK) this.endChunk();
  }

  private endChunk(): void {
    this.chunks.push(this.pieces.join(""));
    this.pieces.length = 0;
    this.pending = 0;
  }

  build(parts: ModuleParts): BuiltModule {
    const out: string[] = [];
    for (const h of parts.header) out.push(h.text, "\n");
    if (this.exporting) {
      const values = parts.imports.filter((i) => !i.typeOnly).map((i) => i.name);
      if (values.length > 0) out.push(`import { ${values.join(", ")} } from "${RUNTIME_MODULE}";\n`);
      for (const i of parts.builtinImports) out.push(`import { ${i.name} } from "${i.from}";\n`);
    } else out.push('"use strict";\n');
    for (const c of parts.consts) out.push(constText(c, false, this.exporting), "\n");
    const before = out.reduce((n, s) => n + s.length, 0);
    // (The last chunk's pieces as they are: one join fewer, which a small module is all.)
    for (const c of this.chunks) out.push(c);
    for (const x of this.pieces) out.push(x);
    for (const c of parts.tail) out.push(constText(c, false, this.exporting), "\n");
    if (!this.exporting) {
      const exported = [...parts.consts.filter((c) => c.exported).map((c) => c.name.text), ...this.exportedFunctions, ...parts.tail.filter((c) => c.exported).map((c) => c.name.text)];
      // (In the one join: appended after it, the text would be a concatenation that
      // vm.compileFunction flattens into a second copy of the module.)
      out.push(`return { __proto__: null, ${exported.join(", ")} };\n`);
    }
    return { code: out.join(""), functionStarts: this.starts.map((s) => s + before) };
  }
}
