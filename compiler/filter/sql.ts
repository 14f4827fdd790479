// Residual atoms → a SQL WHERE clause per dialect (PostgreSQL, MySQL, SQL Server, SQLite).
//
// Each condition is written so that the row passes exactly when the policy, evaluated with that
// row as the unknown (a NULL column read as JSON null), allows it. Rego orders null before every
// other value and `not` is two-valued, where SQL's NULL is unknown; so `!=`, `<` and `<=` also
// pass NULL (`null != "x"` and `null < 10` hold in Rego), and a negated condition is written as
// its complement (`not x == "a"` → `(x <> 'a' OR x IS NULL)`) instead of SQL's NOT, which would
// drop the NULL rows.
import type { Atom, AtomOp, Constant, Disjunction } from "./fragment.js";
import { mapField, type Mappings } from "./mappings.js";
import type { SqlDialect } from "./targets.js";

/** The WHERE clause of a residual that is not a deny: "" is allow-all. */
export function toSql(d: Disjunction, mapping: Mappings, dialect: SqlDialect): string {
  if (d.some((conj) => conj.length === 0)) return "";
  const bodies = d.map((conj) => group(conj.map((a) => atomSql(a, mapping, dialect)), "AND"));
  return `WHERE ${group(bodies, "OR")}`;
}

function group(parts: string[], joiner: "AND" | "OR"): string {
  return parts.length === 1 ? parts[0]! : `(${parts.join(` ${joiner} `)})`;
}

const COMPLEMENT: Record<string, AtomOp> = { eq: "ne", ne: "eq", lt: "gte", gte: "lt", lte: "gt", gt: "lte" };
const SYMBOL: Record<string, string> = { eq: "=", ne: "<>", lt: "<", lte: "<=", gt: ">", gte: ">=" };

function atomSql(a: Atom, mapping: Mappings, dialect: SqlDialect): string {
  const f = ident(mapField(a.field, mapping), dialect);
  const o = a.operand;
  if (o.kind === "list") {
    const nonNull = o.items.filter((c) => c.value !== null);
    const hasNull = nonNull.length < o.items.length;
    const list = nonNull.map((c) => literal(c, dialect)).join(", ");
    if (!a.negated) {
      if (nonNull.length === 0) return hasNull ? `${f} IS NULL` : "1 = 0";
      return hasNull ? `(${f} IN (${list}) OR ${f} IS NULL)` : `${f} IN (${list})`;
    }
    if (nonNull.length === 0) return hasNull ? `${f} IS NOT NULL` : "1 = 1";
    return hasNull ? `${f} NOT IN (${list})` : `(${f} NOT IN (${list}) OR ${f} IS NULL)`;
  }
  if (a.op === "startswith" || a.op === "endswith" || a.op === "contains") {
    const s = String((o as { constant: Constant }).constant.value);
    const body = escapeLike(s, dialect);
    const pattern = a.op === "startswith" ? `${body}%` : a.op === "endswith" ? `%${body}` : `%${body}%`;
    const escape = dialect === "sqlserver" ? ` ESCAPE ${literal({ value: "\\" }, dialect)}` : "";
    const like = `${literal({ value: pattern }, dialect)}${escape}`;
    // a NULL field: startswith is undefined in Rego, so `not startswith(...)` holds
    return a.negated ? `(${f} NOT LIKE ${like} OR ${f} IS NULL)` : `${f} LIKE ${like}`;
  }
  const op = a.negated ? COMPLEMENT[a.op]! : a.op;
  if (o.kind === "field") return fieldComparison(f, op, ident(mapField(o.path, mapping), dialect));
  if (o.constant.value === null) return op === "eq" ? `${f} IS NULL` : `${f} IS NOT NULL`;
  const cmp = `${f} ${SYMBOL[op]} ${literal(o.constant, dialect)}`;
  // null != v and null < v hold in Rego; the other comparisons are false for null, as in SQL
  return op === "ne" || op === "lt" || op === "lte" ? `(${cmp} OR ${f} IS NULL)` : cmp;
}

/** Two fields, either possibly NULL, compared in Rego's order (null first). */
function fieldComparison(f: string, op: AtomOp, g: string): string {
  const s = SYMBOL[op];
  switch (op) {
    case "eq":
      return `(${f} = ${g} OR (${f} IS NULL AND ${g} IS NULL))`;
    case "ne":
      return `(${f} <> ${g} OR (${f} IS NULL AND ${g} IS NOT NULL) OR (${f} IS NOT NULL AND ${g} IS NULL))`;
    case "lt":
      return `(${f} < ${g} OR (${f} IS NULL AND ${g} IS NOT NULL))`;
    case "lte":
      return `(${f} <= ${g} OR ${f} IS NULL)`;
    case "gt":
      return `(${f} > ${g} OR (${f} IS NOT NULL AND ${g} IS NULL))`;
    default:
      return `(${f} ${s} ${g} OR ${g} IS NULL)`;
  }
}

const PLAIN_IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
// words that must be quoted as identifiers in at least one of the dialects
const RESERVED = new Set(
  ("all and any as asc between by case check collate column constraint create cross current_date current_time current_timestamp " +
    "current_user default delete desc distinct drop else end except exists false fetch for foreign from full grant group having " +
    "in index inner insert intersect into is join key left like limit natural not null offset on or order outer primary references " +
    "right select session_user set table then to top true union unique update user using values when where with").split(" "),
);

/** A table-qualified column, each part quoted when it is not a plain, unreserved identifier. */
function ident([table, column]: [string, string], dialect: SqlDialect): string {
  return [...table.split("."), column].map((p) => quoteIdent(p, dialect)).join(".");
}

function quoteIdent(name: string, dialect: SqlDialect): string {
  if (PLAIN_IDENT.test(name) && !RESERVED.has(name.toLowerCase())) return name;
  switch (dialect) {
    case "mysql":
      return `\`${name.replaceAll("`", "``")}\``;
    case "sqlserver":
      return `[${name.replaceAll("]", "]]")}]`;
    default:
      return `"${name.replaceAll('"', '""')}"`;
  }
}

/** `%`, `_` and the escape character itself, escaped with a backslash (SQL Server also `[`). */
function escapeLike(s: string, dialect: SqlDialect): string {
  return s.replace(dialect === "sqlserver" ? /[\\%_[]/g : /[\\%_]/g, (c) => `\\${c}`);
}

const BACKSLASH_ESCAPES: Record<string, string> = {
  "\0": "\\0",
  "\b": "\\b",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
  "\x1a": "\\Z",
  "'": "\\'",
  '"': '\\"',
  "\\": "\\\\",
};

function literal(c: Constant, dialect: SqlDialect): string {
  const v = c.value;
  if (v === null) return "NULL";
  if (typeof v === "number") return c.text ?? String(v);
  if (typeof v === "boolean") return dialect === "sqlserver" ? (v ? "1" : "0") : v ? "TRUE" : "FALSE";
  switch (dialect) {
    case "postgresql":
      // E'...': backslash escapes; \x1a has no letter escape there
      return `E'${v.replace(/[\0\b\n\r\t\x1a'"\\]/g, (ch) => (ch === "\x1a" ? "\\x1A" : BACKSLASH_ESCAPES[ch]!))}'`;
    case "mysql":
      return `'${v.replace(/[\0\b\n\r\t\x1a'"\\]/g, (ch) => BACKSLASH_ESCAPES[ch]!)}'`;
    case "sqlserver":
      return `N'${v.replaceAll("'", "''")}'`;
    case "sqlite":
      return `'${v.replaceAll("'", "''").replaceAll("\0", "'||char(0)||'")}'`;
  }
}
