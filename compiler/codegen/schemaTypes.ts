// Types that come from JSON Schemas (METADATA `schemas:` annotations, or the compilation's input
// schema) rather than from the refs a plan reads. The plan JSON has no room for them, so the
// frontend hands them to the code generator next to the plan (GenerateOptions.schemaTypes), as
// plain data: the generator renders them only through code.ts (keys through lit()).

/** A TypeScript type, described: what emit/types.ts `describedType` renders. */
export type TypeDescription =
  | { kind: "unknown" | "null" | "boolean" | "number" | "string" }
  | { kind: "union"; of: TypeDescription[] }
  /** `items` first (a tuple's members), then any number of `rest` (absent: exactly `items`). */
  | { kind: "array"; items: TypeDescription[]; rest?: TypeDescription }
  /** `rest`: the values of other keys (an index signature); absent: a closed object. */
  | { kind: "object"; properties: Array<{ key: string; type: TypeDescription; optional: boolean }>; rest?: TypeDescription };

/** What schemas say about one entrypoint's documents. */
export interface EntrypointSchemaTypes {
  /** The whole `input`. */
  input?: TypeDescription;
  /** Paths below `data` (constant keys) and their types. */
  data?: Array<{ path: string[]; type: TypeDescription }>;
}

/** Entrypoint (plan) name → its schema types. */
export type SchemaTypes = ReadonlyMap<string, EntrypointSchemaTypes>;

/**
 * The schema types shared by every plan of a group (the plans that share one Input and one Data
 * type): one part is used only when every plan has it and all agree, else that part comes from
 * the refs, as without schemas.
 */
export function groupSchemaTypes(types: SchemaTypes | undefined, plans: readonly string[]): EntrypointSchemaTypes {
  if (!types) return {};
  return agreedTypes(plans.map((p) => types.get(p) ?? {}));
}

/** The parts of several sets of schema types that all of them have, the same in each. */
export function agreedTypes(all: readonly EntrypointSchemaTypes[]): EntrypointSchemaTypes {
  const out: EntrypointSchemaTypes = {};
  const input = agreed(all.map((t) => t.input));
  if (input) out.input = input;
  const data = agreed(all.map((t) => (t.data?.length ? t.data : undefined)));
  if (data) out.data = data;
  return out;
}

/** The value when every member is defined and all are the same (as JSON), else undefined. */
function agreed<T>(xs: Array<T | undefined>): T | undefined {
  const first = xs[0];
  if (first === undefined) return undefined;
  const text = JSON.stringify(first);
  return xs.every((x) => x !== undefined && JSON.stringify(x) === text) ? first : undefined;
}
