// The site tables of a generated module: where its builtin calls and conflict checks are, as one
// string literal per table, not one statement per site (text that a module's import would
// compile and run). The builtin sites are read at load into module constants (`const C =
// builtinSites("..."), c0 = C[0], ...`); the conflict sites stay text until a conflict is raised.
//
// A table is JSON text — {"names": [...], "files": [...], "sites": [name, file, row, col, ...]} —
// each site four numbers: its name's index in `names` (a builtin's name, or a conflict's kind),
// its file's index in `files`, its row and its column. The compiler writes it with JSON.stringify
// and a string literal, so no file or builtin name can change how it reads.
//
// A single site is resolved here only (`builtinSite`, `conflictSite`: not exported, as generated
// code names its sites by table and index alone).
import { getBuiltin, type BuiltinDef, type BuiltinFn, type BuiltinTable } from "../builtins/registry.js";
import { internalError, type ConflictSite } from "./ops.js";
import type { BuiltinSite } from "./state.js";
import { CONFLICT_MESSAGES, builtinNotImplementedError } from "./errors.js";

interface SiteTable {
  names: string[];
  files: string[];
  sites: number[];
}

/** A malformed table (generated code edited or damaged): a coded error, never a crash. */
function malformed(detail: string): never {
  throw internalError(`malformed site table in generated code: ${detail}`);
}

function parseTable(text: string): SiteTable {
  let t: Partial<SiteTable> | null;
  try {
    t = JSON.parse(text) as Partial<SiteTable> | null;
  } catch {
    return malformed("not JSON");
  }
  if (!t || !Array.isArray(t.names) || !Array.isArray(t.files) || !Array.isArray(t.sites) || t.sites.length % 4 !== 0) {
    return malformed("not {names, files, sites}");
  }
  return t as SiteTable;
}

/** Where site `index` of `t` starts in `t.sites` (its name, file, row and col), checked: the table
 * is data a module carries. */
function siteAt(t: SiteTable, index: number): number {
  const j = index * 4;
  if (!(Number.isInteger(j) && j >= 0 && j < t.sites.length)) return malformed(`no site ${index}`);
  // (An index out of range or not an integer reads undefined.)
  if (typeof t.names[t.sites[j]!] !== "string" || typeof t.files[t.sites[j + 1]!] !== "string" || typeof t.sites[j + 2] !== "number" || typeof t.sites[j + 3] !== "number") {
    return malformed(`site ${index}`);
  }
  return j;
}

/** The builtin call sites of a module, resolved at load (as `call0`..`callN` take them): from the
 * category tables the module imports (`regoc/builtins/<category>`), else from the registry (a
 * custom builtin, or a module compiled to a function body). A builtin found in neither fails the
 * load, at its first site's location. */
export function builtinSites(table: string, ...categories: readonly BuiltinTable[]): readonly BuiltinSite[] {
  const t = parseTable(table);
  const { names, files, sites } = t;
  const out: BuiltinSite[] = new Array(sites.length / 4);
  for (let i = 0; i < out.length; i++) {
    const j = siteAt(t, i);
    const name = names[sites[j]!]!;
    const def = categories.find((c) => Object.hasOwn(c, name))?.[name] ?? getBuiltin(name);
    out[i] = builtinSite(name, def, files[sites[j + 1]!]!, sites[j + 2]!, sites[j + 3]!);
  }
  return out;
}

/** The conflict sites of a module: kept as text until a conflict is raised (most never are). */
export class ConflictSites {
  private decoded: SiteTable | undefined;
  constructor(private readonly table: string) {}

  /** Site `index` of the table. */
  site(index: number): ConflictSite {
    const t = (this.decoded ??= parseTable(this.table));
    const j = siteAt(t, index);
    return conflictSite(t.names[t.sites[j]!]!, t.files[t.sites[j + 1]!]!, t.sites[j + 2]!, t.sites[j + 3]!);
  }
}

export function conflictSites(table: string): ConflictSites {
  return new ConflictSites(table);
}

/** A call site of builtin `def` (resolved at module load); a missing builtin is a coded error. */
function builtinSite(name: string, def: BuiltinDef | undefined, file: string, row: number, col: number): BuiltinSite {
  if (!def) {
    throw builtinNotImplementedError(name, { file, row, col });
  }
  return Object.freeze({
    name,
    location: Object.freeze({ file, row, col }),
    def,
    fn: def.fn as BuiltinFn,
    special: def.nondeterministic === true || def.async === true,
  });
}

function conflictSite(kind: string, file: string, row: number, col: number): ConflictSite {
  if (!Object.hasOwn(CONFLICT_MESSAGES, kind)) throw internalError(`unknown conflict kind ${JSON.stringify(kind)}`);
  return Object.freeze({ message: CONFLICT_MESSAGES[kind as keyof typeof CONFLICT_MESSAGES], location: Object.freeze({ file, row, col }) });
}
