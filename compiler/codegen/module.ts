// The module skeleton, built with ts-morph from structures in ONE createSourceFile call (adding
// declarations one by one is ~35x slower): the import from "regoc", type aliases, module-level
// constants, functions and the entrypoint table. Bodies and types are Code rendered by code.ts;
// ts-morph only lays out and indents them. One in-memory Project is reused across compilations.
import {
  IndentationText,
  NewLineKind,
  Project,
  QuoteKind,
  StructureKind,
  VariableDeclarationKind,
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

let project: Project | undefined;
let counter = 0;

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

function variable(c: ModuleParts["consts"][number]): StatementStructures {
  return {
    kind: StructureKind.VariableStatement,
    declarationKind: VariableDeclarationKind.Const,
    isExported: c.exported === true,
    ...(c.doc ? { leadingTrivia: `${c.doc.text}\n` } : {}),
    declarations: [{ name: c.name.text, initializer: c.init.text, ...(c.type ? { type: c.type.text } : {}) }],
  };
}

export function buildModule(parts: ModuleParts): string {
  const statements: Array<string | StatementStructures> = [];
  for (const h of parts.header) statements.push(h.text);
  statements.push({
    kind: StructureKind.ImportDeclaration,
    moduleSpecifier: "regoc",
    namedImports: parts.imports.map((i) => ({ name: i.name, isTypeOnly: i.typeOnly })),
  });
  // Type aliases are written as text: ts-morph would give a multi-line type a hanging indent.
  for (const t of parts.typeAliases) {
    statements.push(`${t.doc ? `${t.doc.text}\n` : ""}${t.exported ? "export " : ""}type ${t.name.text} = ${t.type.text};`);
  }
  for (const c of parts.consts) statements.push(variable(c));
  for (const f of parts.functions) {
    statements.push({
      kind: StructureKind.Function,
      name: f.name.text,
      isExported: f.isExported,
      isAsync: f.isAsync,
      leadingTrivia: `${f.doc.text}\n`,
      parameters: f.params.map((p) => ({ name: p.name.text, type: p.type.text, hasQuestionToken: p.optional === true })),
      returnType: f.returnType.text,
      statements: render(f.body),
    });
  }
  // Trailing constants are written as text: ts-morph would give a multi-line initializer a
  // hanging indent.
  for (const c of parts.tail) {
    const exp = c.exported ? "export " : "";
    const type = c.type ? `: ${c.type.text}` : "";
    statements.push(`${c.doc ? `${c.doc.text}\n` : ""}${exp}const ${c.name.text}${type} = ${c.init.text};`);
  }
  const file = getProject().createSourceFile(`regoc-module-${counter++}.ts`, { statements }, { overwrite: true });
  try {
    return file.getFullText();
  } finally {
    getProject().removeSourceFile(file);
  }
}
