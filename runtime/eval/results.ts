// ResultSetAddStmt: the plan's result set is a *set* of binding objects; duplicates collapse.
// Small result sets are deduplicated by structural comparison; past a few rows a RegoSet index
// takes over, so large ones stay linear.
import { equal } from "../value/compare.js";
import { RegoSet } from "../value/set.js";
import { isPlainObject, type MaybeValue } from "../value/value.js";
import { internalError } from "./ops.js";
import type { Bindings, ResultSet } from "./prepared.js";

const LINEAR = 8;

export class ResultSetBuilder {
  readonly rows: ResultSet = [];
  private index: RegoSet | undefined = undefined;

  add(v: MaybeValue): void {
    if (v === undefined) return;
    if (!isPlainObject(v)) throw internalError("ResultSetAddStmt: value is not an object of bindings");
    const rows = this.rows;
    if (this.index !== undefined) {
      if (this.index.add(v)) rows.push(v);
      return;
    }
    for (let i = 0; i < rows.length; i++) if (equal(rows[i]!, v)) return;
    rows.push(v as Bindings);
    if (rows.length === LINEAR) this.index = new RegoSet(rows);
  }
}
