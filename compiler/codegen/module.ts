// The module layout: header comments, the import from "regoc", type aliases, module-level
// constants, functions and the entrypoint table, in that order. Every piece is Code rendered by
// code.ts (types, initializers, bodies) or a Name; this file only adds the fixed syntax around
// them, so nothing policy-derived reaches the text except through lit() and the identifier
// function.
//
// The layout is the one ts-morph's structure printer gave (the golden tests hold it byte for
// byte): statements one per line, a blank line before and after each function, two-space
// indentation, a final newline. It is written directly: ts-morph's printer re-reads every
// character it writes and costs ~40 µs per function (half a second for a 1 MB policy set), and
// creating a ts-morph SourceFile would also run the TypeScript parser over the whole module.
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

/** `import { a, type B } from "regoc";` (the names are the runtime's own, from names.ts). */
function importText(imports: ModuleParts["imports"]): string {
  if (imports.length === 0) return `import "regoc";`;
  return `import { ${imports.map((i) => (i.typeOnly ? `type ${i.name}` : i.name)).join(", ")} } from "regoc";`;
}

function constText(c: ModuleParts["consts"][number]): string {
  const exp = c.exported ? "export " : "";
  const type = c.type ? `: ${c.type.text}` : "";
  return `${c.doc ? `${c.doc.text}\n` : ""}${exp}const ${c.name.text}${type} = ${c.init.text};`;
}

function functionText(f: FunctionParts): string {
  const params = f.params.map((p) => `${p.name.text}${p.optional === true ? "?" : ""}: ${p.type.text}`).join(", ");
  const head = `${f.doc.text}\n${f.isExported ? "export " : ""}${f.isAsync ? "async " : ""}function ${f.name.text}(${params}): ${f.returnType.text} {`;
  // Functions are top-level: their statements sit one level in.
  const body = render(f.body, 1);
  return body === "" ? `${head}\n}` : `${head}\n${body}\n}`;
}

/** Whitespace as ts-morph's layout rules see it. */
const WHITESPACE = new Set([" ", "\f", "\n", "\r", "\t", "\v", "\u00A0", "\u2028", "\u2029"]);

/** Whether the last non-whitespace character of `text` is `}` (a block ended). */
function endsWithBlock(text: string): boolean {
  for (let i = text.length - 1; i >= 0; i--) {
    if (!WHITESPACE.has(text[i]!)) return text[i] === "}";
  }
  return false;
}

/** The last modules laid out here (see `isOwnLayout`). */
const recent: string[] = [];

/**
 * Whether `code` is a module this process laid out just now. In such a module a blank line occurs
 * only between top-level statements (lit() and comment() escape line breaks; bodies, types and
 * the entrypoint table never hold an empty line), so the loader may split it there and transform
 * the pieces in parallel. (Were that ever wrong, a piece would end inside braces, esbuild would
 * refuse it, and the loader would transform the whole module instead.)
 */
export function isOwnLayout(code: string): boolean {
  return recent.includes(code);
}

export function buildModule(parts: ModuleParts): string {
  const out: string[] = [];
  /** Appends a statement; `blankBefore`: a blank line separates it from the previous one. */
  const add = (text: string, blankBefore = false): void => {
    // After a block (`}`) there is always a blank line.
    if (out.length > 0 && (blankBefore || endsWithBlock(out[out.length - 1]!))) out.push("");
    out.push(text);
  };
  for (const h of parts.header) add(h.text);
  add(importText(parts.imports));
  for (const t of parts.typeAliases) add(`${t.doc ? `${t.doc.text}\n` : ""}${t.exported ? "export " : ""}type ${t.name.text} = ${t.type.text};`);
  for (const c of parts.consts) add(constText(c));
  for (const f of parts.functions) add(functionText(f), true);
  for (const c of parts.tail) add(constText(c));
  const text = `${out.join("\n")}\n`;
  recent.unshift(text);
  if (recent.length > 4) recent.length = 4;
  return text;
}
