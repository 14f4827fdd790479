// The targets of a data-filter compilation, named as OPA's compile API names them (its media
// types, the `targetDialects` entries of a multi-target request) or by a short name, and what
// each target can express (OPA's constraints: which builtins, and the features "not",
// "field-ref" and "existence-ref").
import { invalidParameterError } from "./errors.js";

export type UcastVariant = "all" | "minimal" | "prisma" | "linq";
export type SqlDialect = "postgresql" | "mysql" | "sqlserver" | "sqlite";

export type FilterTarget = { kind: "ucast"; variant: UcastVariant } | { kind: "sql"; dialect: SqlDialect };

export type Feature = "not" | "field-ref" | "existence-ref";

export interface Constraint {
  target: FilterTarget;
  /** How OPA's messages name the target: `UCAST (prisma)`, `SQL (sqlite)`, `UCAST`. */
  name: string;
  builtins: ReadonlySet<string>;
  features: ReadonlySet<Feature>;
}

const COMPARISONS = ["eq", "equal", "neq", "lt", "lte", "gt", "gte"];
const MEMBER = "internal.member_2";
const LIKES = ["startswith", "endswith", "contains"];
const MINIMAL = new Set(COMPARISONS);
const ALL = new Set([...COMPARISONS, MEMBER, ...LIKES]);
const WITH_MEMBER = new Set([...COMPARISONS, MEMBER]);

export const MULTITARGET_MEDIA_TYPE = "application/vnd.opa.multitarget+json";
const MEDIA_PREFIX = "application/vnd.opa.";
const UCAST_VARIANTS: readonly UcastVariant[] = ["all", "minimal", "prisma", "linq"];
const SQL_DIALECTS: readonly SqlDialect[] = ["postgresql", "mysql", "sqlserver", "sqlite"];

export interface ParsedTarget {
  /** A multi-target request answers `{ucast, postgresql, ...}` instead of one `{query}`. */
  multi: boolean;
  targets: FilterTarget[];
}

/**
 * Reads a target: one of OPA's media types (`application/vnd.opa.sql.postgresql+json`,
 * `application/vnd.opa.ucast.prisma+json`, `application/vnd.opa.multitarget+json`) or its short
 * name (`postgresql`, `sql.postgresql`, `ucast.prisma`, `multitarget`). A multi-target request
 * lists its targets in `targetDialects` as OPA does (`sql+postgresql`, `ucast+prisma`).
 */
export function parseTarget(target: string, targetDialects: readonly string[] = []): ParsedTarget {
  let name = typeof target === "string" ? target.trim() : "";
  if (name.startsWith(MEDIA_PREFIX) && name.endsWith("+json")) name = name.slice(MEDIA_PREFIX.length, -"+json".length);
  if (name === "multitarget") {
    return { multi: true, targets: targetDialects.map((d) => one(d.replace("+", "."), d, true)) };
  }
  return { multi: false, targets: [one(name, target, false)] };
}

function one(name: string, given: string, fromDialects: boolean): FilterTarget {
  const [a, b, ...rest] = name.split(".");
  if (rest.length === 0) {
    if (b === undefined && SQL_DIALECTS.includes(a as SqlDialect)) return { kind: "sql", dialect: a as SqlDialect };
    if (a === "sql" && SQL_DIALECTS.includes(b as SqlDialect)) return { kind: "sql", dialect: b as SqlDialect };
    if (a === "ucast" && UCAST_VARIANTS.includes(b as UcastVariant)) return { kind: "ucast", variant: b as UcastVariant };
  }
  const known = [
    ...SQL_DIALECTS.map((d) => `${MEDIA_PREFIX}sql.${d}+json`),
    ...UCAST_VARIANTS.map((v) => `${MEDIA_PREFIX}ucast.${v}+json`),
    MULTITARGET_MEDIA_TYPE,
  ];
  const what = fromDialects ? `targetDialects entry ${JSON.stringify(given)}` : `target ${JSON.stringify(given)}`;
  throw invalidParameterError(
    `unsupported ${what}: use one of ${known.join(", ")}, or a short name such as postgresql or ucast.prisma` +
      (fromDialects ? " (entries are written sql+postgresql, ucast+prisma)" : ""),
  );
}

/** A cache (module state on purpose): one constraint object per target. */
const constraints = new Map<string, Constraint>();

/** What a target can express (one object per target, made when first asked for). */
export function constraintFor(target: FilterTarget): Constraint {
  const key = target.kind === "sql" ? `sql.${target.dialect}` : `ucast.${target.variant}`;
  let c = constraints.get(key);
  if (!c) constraints.set(key, (c = makeConstraint(target)));
  return c;
}

function makeConstraint(target: FilterTarget): Constraint {
  if (target.kind === "sql") {
    return {
      target,
      name: `SQL (${target.dialect})`,
      // SQLite's LIKE ignores case (ASCII), so prefixes and infixes are not translated for it
      builtins: target.dialect === "sqlite" ? WITH_MEMBER : ALL,
      features: new Set<Feature>(["not", "field-ref", "existence-ref"]),
    };
  }
  switch (target.variant) {
    case "all":
      return { target, name: "UCAST (all)", builtins: ALL, features: new Set<Feature>(["not", "field-ref"]) };
    case "prisma":
      return { target, name: "UCAST (prisma)", builtins: ALL, features: new Set<Feature>(["not"]) };
    case "linq":
      return { target, name: "UCAST (LINQ)", builtins: WITH_MEMBER, features: new Set<Feature>() };
    case "minimal":
      return { target, name: "UCAST", builtins: MINIMAL, features: new Set<Feature>() };
  }
}

/** The key of a target in a multi-target answer (one UCAST answer serves every variant). */
export function resultKey(target: FilterTarget): "ucast" | SqlDialect {
  return target.kind === "ucast" ? "ucast" : target.dialect;
}
