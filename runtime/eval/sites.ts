// The site tables of a generated module: where its builtin calls and conflict checks are, as one
// string literal per table instead of one statement per site. (A 1 MB policy set's module had
// ~22 600 site statements, 1.4 MB of text that V8 compiled and ran at import.) The builtin sites
// are read at load into module constants (`const C = builtinSites("..."), c0 = C[0], ...`); the
// conflict sites stay text until a conflict is raised.
//
// A table is JSON text — {"names": [...], "files": [...], "sites": [name, file, row, col, ...]} —
// each site four numbers: its name's index in `names` (a builtin's name, or a conflict's kind),
// its file's index in `files`, its row and its column. The compiler writes it with JSON.stringify
// and a string literal, so no file or builtin name can change how it reads.
import { RegoError } from "../errors.js";
import { conflictSite, type ConflictKind, type ConflictSite } from "./ops.js";
import { builtinSite, type BuiltinSite } from "./state.js";

interface SiteTable {
  names: string[];
  files: string[];
  sites: number[];
}

function parseTable(text: string): SiteTable {
  const t = JSON.parse(text) as Partial<SiteTable> | null;
  if (!t || !Array.isArray(t.names) || !Array.isArray(t.files) || !Array.isArray(t.sites) || t.sites.length % 4 !== 0) {
    throw new RegoError("eval_internal_error", "malformed site table in generated code");
  }
  return t as SiteTable;
}

/** The builtin call sites of a module, resolved at load (as `call0`..`callN` take them): a
 * builtin that is not registered fails the load, at its first site's location. */
export function builtinSites(table: string): readonly BuiltinSite[] {
  const { names, files, sites } = parseTable(table);
  const out: BuiltinSite[] = new Array(sites.length / 4);
  for (let i = 0, j = 0; j < sites.length; i++, j += 4) {
    out[i] = builtinSite(names[sites[j]!]!, files[sites[j + 1]!]!, sites[j + 2]!, sites[j + 3]!);
  }
  return out;
}

/** The conflict sites of a module: kept as text until a conflict is raised (most never are). */
export class ConflictSites {
  private decoded: SiteTable | undefined;
  constructor(private readonly table: string) {}

  /** Site `index` of the table. */
  site(index: number): ConflictSite {
    const { names, files, sites } = (this.decoded ??= parseTable(this.table));
    const j = index * 4;
    if (!(j >= 0 && j < sites.length)) throw new RegoError("eval_internal_error", `no conflict site ${index} in generated code`);
    return conflictSite(names[sites[j]!] as ConflictKind, files[sites[j + 1]!]!, sites[j + 2]!, sites[j + 3]!);
  }
}

export function conflictSites(table: string): ConflictSites {
  return new ConflictSites(table);
}
