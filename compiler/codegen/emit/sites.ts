// A module's site table as it is built: the builtin call sites or the conflict sites its functions
// use, each numbered once (identical sites share a number), written as the JSON text the runtime
// reads (runtime/eval/sites.ts says the format). The text is data: it reaches the module only
// as a string literal made by `lit`, so no file or builtin name is ever spliced into code.

export class SiteTable {
  /** Names (builtins, or conflict kinds) by their number in the table. */
  private readonly names: string[] = [];
  private readonly nameIds = new Map<string, number>();
  /** File texts by their number in the table (plan files with the same text share one). */
  private readonly files: string[] = [];
  private readonly fileIds = new Map<string, number>();
  /** By a plan file index: its number in the table (no lookup by text per site). */
  private readonly fileIdsByIndex: number[] = [];
  /** Four numbers a site: name, file, row, col. */
  private readonly sites: number[] = [];
  /** Site numbers by file number, then by location and name packed into one number when that is
   * exact (always, in practice: no string is built per site). The name goes last, so that the key
   * stays a small number (a Smi, not a heap number); one map per file, not per name and file
   * (hot, see bench/frontend.bench.ts). */
  private readonly byFile: Array<Map<number, number>> = [];
  /** The sites whose parts do not pack, by their text. */
  private readonly byText = new Map<string, number>();

  constructor(private readonly planFiles: ReadonlyArray<{ value: string }>) {}

  get size(): number {
    return this.sites.length / 4;
  }

  /** The number of the site `name` at a location, added when new. (The location's numbers, not
   * the statement: read where the statement's type is known, they are monomorphic loads.) */
  add(name: string, file: number, row: number, col: number): number {
    let nameId = this.nameIds.get(name);
    if (nameId === undefined) {
      this.nameIds.set(name, (nameId = this.names.length));
      this.names.push(name);
    }
    let fileId: number | undefined = this.fileIdsByIndex[file];
    if (fileId === undefined) {
      const text = this.planFiles[file]?.value ?? "";
      fileId = this.fileIds.get(text);
      if (fileId === undefined) {
        this.fileIds.set(text, (fileId = this.files.length));
        this.files.push(text);
      }
      this.fileIdsByIndex[file] = fileId;
    }
    const key = packedSite(nameId, row, col);
    const text = key < 0 ? `${nameId}:${fileId}:${row}:${col}` : "";
    const sites = key < 0 ? undefined : (this.byFile[fileId] ??= new Map());
    let n = sites === undefined ? this.byText.get(text) : sites.get(key);
    if (n === undefined) {
      // (JSON would write a NaN or an infinity as null: a location the runtime could not report.)
      if (!Number.isFinite(row) || !Number.isFinite(col)) throw new Error(`codegen: location ${row}:${col} is not finite`);
      n = this.size;
      this.sites.push(nameId, fileId, row, col);
      if (sites === undefined) this.byText.set(text, n);
      else sites.set(key, n);
    }
    return n;
  }

  /** The table as JSON text (for `lit`). */
  json(): string {
    return JSON.stringify({ names: this.names, files: this.files, sites: this.sites });
  }
}

/** A site's key in its file's map: row, column and name in 30, 15 and 8 bits of one exact number
 * (below 2^53), or -1 when one of them is larger. */
function packedSite(nameId: number, row: number, col: number): number {
  if (nameId < 2 ** 8 && isSmallNatural(row, 2 ** 30) && isSmallNatural(col, 2 ** 15)) return (row * 2 ** 15 + col) * 2 ** 8 + nameId;
  return -1;
}

/** An integer in [0, limit). */
function isSmallNatural(x: number, limit: number): boolean {
  return Number.isInteger(x) && x >= 0 && x < limit;
}
