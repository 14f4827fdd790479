// Table and column mappings (OPA's `targetSQLTableMappings`): per dialect, per target, or one
// map for all; `{fruits: {$self: "fruit_table", name: "name_col"}}` renames a table and its
// columns, `{name: {$table: "fruits"}}` makes the short unknown `input.name` the column `name`
// of table `fruits`.
import { invalidParameterError } from "./errors.js";
import type { FilterTarget } from "./targets.js";

export type Mappings = Readonly<Record<string, unknown>>;
type TableMapping = Readonly<Record<string, unknown>>;

function isMap(v: unknown): v is TableMapping {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The mapping that applies to a target: its dialect's (`postgresql`), its kind's (`sql`,
 * `ucast`), or the whole map. */
export function mappingFor(mappings: Mappings | undefined, target: FilterTarget): Mappings {
  if (!mappings) return {};
  const keys = target.kind === "sql" ? [target.dialect, "sql"] : [target.variant, "ucast"];
  for (const k of keys) {
    const m = mappings[k];
    if (m === undefined || m === null) continue;
    if (!isMap(m)) throw invalidParameterError(`invalid targetSQLTableMappings for ${k}: expected an object`);
    return m;
  }
  return mappings;
}

/** The short unknowns a mapping maps to a table (`{name: {$table: "fruits"}}` → name). */
export function shortNames(mapping: Mappings): Set<string> {
  const out = new Set<string>();
  for (const [k, v] of Object.entries(mapping)) if (isMap(v) && typeof v["$table"] === "string") out.add(k);
  return out;
}

/** [table, column] of a field after the mapping. */
export function mapField(field: readonly string[], mapping: Mappings): [string, string] {
  let [table, column] = field.length === 1 ? [field[0]!, field[0]!] : [field[0]!, field[1]!];
  if (field.length === 1) {
    const short = mapping[table];
    if (isMap(short) && typeof short["$table"] === "string") table = short["$table"];
  }
  const m = mapping[table];
  if (isMap(m)) {
    const self = m["$self"];
    const col = m[column];
    if (typeof col === "string") column = col;
    if (typeof self === "string") table = self;
  }
  return [table, column];
}
