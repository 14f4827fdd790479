// The module, built with ts-morph: header comments, the import from "regoc", type aliases,
// module-level constants, functions and the entrypoint table, as ts-morph structures in ONE
// `createSourceFile` call (ts-morph owns the layout: statement order, blank lines, indentation).
// Every piece of text in a structure is Code rendered by code.ts or a Name, so nothing
// policy-derived reaches the module except through lit() and the identifier function.
//
// Function bodies are the bulk of a module (a 1 MB policy set gives ~12 MB of bodies) and are
// already laid out by code.ts's `render`; handing them to ts-morph would only make it print and
// then re-parse them. So the skeleton is built with empty bodies, and each rendered body is
// placed into its function by the position ts-morph's AST gives for that body's braces — a
// position, never a text search, so no string in the policy can steer where a body goes.
import {
  IndentationText,
  NewLineKind,
  Project,
  QuoteKind,
  StructureKind,
  ts,
  type StatementStructures,
} from "ts-morph";
import { render, type Code, type Name } from "./code.js";
import type { FunctionParts } from "./emit/functions.js";

export interface ModuleParts {
  header: Code[];
  imports: Array<{ name: string; typeOnly: boolean }>;
  typeAliases: Array<{ name: Name; type: Code; exported: boolean; doc?: Code }>;
  consts: Array<{ name: Name; type?: Code; init: Code; exported?: boolean; doc?: Code }>;
  functions: FunctionParts[];
  /** Trailing constants (the entrypoint table), after the functions they refer to. */
  tail: Array<{ name: Name; type?: Code; init: Code; exported?: boolean; doc?: Code }>;
}

/** One in-memory project for every module (creating a Project costs more than a module). */
let project: Project | undefined;

function getProject(): Project {
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

/** A constant as text: ts-morph would give a multi-line initializer a hanging indent, and a
 * policy set has thousands of one-line call-site constants that need no layout. */
function constText(c: ModuleParts["consts"][number]): string {
  const exp = c.exported ? "export " : "";
  const type = c.type ? `: ${c.type.text}` : "";
  return `${c.doc ? `${c.doc.text}\n` : ""}${exp}const ${c.name.text}${type} = ${c.init.text};`;
}

function functionStructure(f: FunctionParts): StatementStructures {
  return {
    kind: StructureKind.Function,
    leadingTrivia: `${f.doc.text}\n`,
    isExported: f.isExported,
    isAsync: f.isAsync,
    name: f.name.text,
    parameters: f.params.map((p) => ({ name: p.name.text, type: p.type.text, hasQuestionToken: p.optional === true })),
    returnType: f.returnType.text,
    statements: [],
  };
}

export function buildModule(parts: ModuleParts): string {
  const project = getProject();
  const statements: (string | StatementStructures)[] = [
    ...parts.header.map((h) => h.text),
    {
      kind: StructureKind.ImportDeclaration,
      moduleSpecifier: "regoc",
      namedImports: parts.imports.map((i) => ({ name: i.name, isTypeOnly: i.typeOnly })),
    },
    // Type aliases as text: ts-morph would give a multi-line type a hanging indent.
    ...parts.typeAliases.map((t) => `${t.doc ? `${t.doc.text}\n` : ""}${t.exported ? "export " : ""}type ${t.name.text} = ${t.type.text};`),
    ...parts.consts.map(constText),
    ...parts.functions.map(functionStructure),
    ...parts.tail.map(constText),
  ];
  const file = project.createSourceFile("module.ts", { statements }, { overwrite: true });
  const skeleton = file.getFullText();
  // Each function's body `{\n}` is replaced by `{\n<rendered body>\n}`, back to front so that
  // earlier positions stay valid.
  // (The compiler nodes are read directly: wrapping thousands of them in ts-morph nodes costs more
  // than building the module.)
  const bodies = file.compilerNode.statements.filter(ts.isFunctionDeclaration).map((d) => d.body!);
  if (bodies.length !== parts.functions.length) throw new Error("internal: function count mismatch in the module skeleton");
  const pieces: string[] = [];
  let end = skeleton.length;
  for (let i = bodies.length - 1; i >= 0; i--) {
    const block = bodies[i]!;
    const open = block.getStart(file.compilerNode) + 1; // just after `{`
    const body = render(parts.functions[i]!.body, 1);
    pieces.push(skeleton.slice(block.end - 1, end), body === "" ? "\n" : `\n${body}\n`);
    end = open;
  }
  pieces.push(skeleton.slice(0, end));
  project.removeSourceFile(file);
  return pieces.reverse().join("");
}
