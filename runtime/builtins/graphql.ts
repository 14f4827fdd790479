// Builtins of OPA's "graphql" category. OPA uses gqlparser; here its grammar and AST shape come
// from graphql/parser.ts, graphql/schemaParser.ts and graphql/ast.ts, its schema loading from
// graphql/schema.ts, and query validation from graphql-js (graphql/validate.ts). Queries and
// schemas are GraphQL strings or the AST objects these builtins return.
//
// Error texts follow OPA's: "<message> in GraphQL string at location <line>:<col>" for syntax
// and validation errors, "Error in gqlparser SchemaDocument to Schema conversion: input:<line>:
// <col>: <message>" for schema errors. Only graphql.parse, parse_query and parse_schema raise
// them; the other builtins answer false (or [false, {}, {}]).
import type { RegoError } from "../errors.js";
import { isObject } from "../value/object.js";
import { newPlainObject, type PlainObject, type Value } from "../value/value.js";
import { builtinError, operandTypeError, str } from "./args.js";
import {
  AstDecodeError, queryFromValue, queryToValue, schemaFromValue, schemaToValue, type GqlQueryDocument, type GqlSchemaDocument,
} from "./graphql/ast.js";
import { GqlSyntaxError, parseQuery } from "./graphql/parser.js";
import { GqlSchemaError, loadSchema, type GqlSchema } from "./graphql/schema.js";
import { parseSchema } from "./graphql/schemaParser.js";
import { validateQuery, type GqlValidationError } from "./graphql/validate.js";
import type { BuiltinTable } from "./registry.js";

/** A failure of one of the steps, as the builtin error OPA would raise. */
class GraphQLFailure extends Error {
  constructor(readonly error: RegoError) {
    super(error.message);
  }
}

function syntax<T>(parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    if (e instanceof GqlSyntaxError) throw new GraphQLFailure(builtinError(`${e.message} in GraphQL string at location ${e.line}:${e.column}`));
    throw e;
  }
}

function decode<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof AstDecodeError) throw new GraphQLFailure(builtinError(`json: ${e.message}`));
    throw e;
  }
}

interface Query {
  doc: GqlQueryDocument;
  /** The query text, when it was given as a string (for error locations). */
  text: string | undefined;
}

function query(v: Value): Query | undefined {
  if (typeof v === "string") return { doc: syntax(() => parseQuery(v)), text: v };
  if (isObject(v)) return { doc: decode(() => queryFromValue(v)), text: undefined };
  return undefined;
}

function schemaDoc(v: Value): GqlSchemaDocument | undefined {
  if (typeof v === "string") return syntax(() => parseSchema(v));
  if (isObject(v)) return decode(() => schemaFromValue(v));
  return undefined;
}

function load(doc: GqlSchemaDocument): GqlSchema {
  try {
    return loadSchema(doc);
  } catch (e) {
    if (e instanceof GqlSchemaError) {
      const at = e.pos ? `input:${e.pos.line}:${e.pos.column}: ` : "input: ";
      throw new GraphQLFailure(builtinError(`Error in gqlparser SchemaDocument to Schema conversion: ${at}${e.message}`));
    }
    throw e;
  }
}

/** OPA reports the first error (the rest of gqlparser's list trails it, as OPA's text does). */
function validationFailure(errors: GqlValidationError[]): GraphQLFailure {
  const where = (e: GqlValidationError) => (e.line !== undefined ? `input:${e.line}:${e.column}: ` : "input: ");
  const [first, ...rest] = errors;
  let message = first!.message + rest.map((e) => `\n${where(e)}${e.message}`).join("");
  message = message.replace(/\.$/, "");
  if (first!.line !== undefined) message += ` in GraphQL string at location ${first!.line}:${first!.column}`;
  return new GraphQLFailure(builtinError(message));
}

interface Checked {
  query: Query;
  schema: GqlSchemaDocument;
}

/** Parses both operands and validates the query against the schema; throws GraphQLFailure. */
function check(q: Value, s: Value, typeErrors: boolean): Checked | undefined {
  const parsedQuery = query(q);
  if (!parsedQuery) {
    if (typeErrors) throw new GraphQLFailure(operandTypeError(0, q, "string", "object"));
    return undefined;
  }
  const parsedSchema = schemaDoc(s);
  if (!parsedSchema) {
    if (typeErrors) throw new GraphQLFailure(operandTypeError(1, s, "string", "object"));
    return undefined;
  }
  const errors = validateQuery(load(parsedSchema), parsedQuery.doc, parsedQuery.text);
  if (errors.length > 0) throw validationFailure(errors);
  return { query: parsedQuery, schema: parsedSchema };
}

/** Runs `f`, turning a GraphQLFailure into the builtin's error. */
function raising<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof GraphQLFailure) throw e.error;
    throw e;
  }
}

/** Runs `f`, turning a GraphQLFailure into `fallback` (the non-raising builtins). */
function quiet<T>(fallback: T, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof GraphQLFailure) return fallback;
    throw e;
  }
}

function parse(q: Value, s: Value): Value[] {
  return raising(() => {
    const c = check(q, s, true)!;
    return [queryToValue(c.query.doc), schemaToValue(c.schema)];
  });
}

function parseAndVerify(q: Value, s: Value): Value[] {
  const unverified = (): Value[] => [false, newPlainObject(), newPlainObject()];
  return quiet(unverified(), () => {
    const c = check(q, s, false);
    return c ? [true, queryToValue(c.query.doc), schemaToValue(c.schema)] : unverified();
  });
}

function isValid(q: Value, s: Value): boolean {
  return quiet(false, () => check(q, s, false) !== undefined);
}

function schemaIsValid(s: Value): boolean {
  return quiet(false, () => {
    const doc = schemaDoc(s);
    if (!doc) return false;
    load(doc);
    return true;
  });
}

function parseQueryBuiltin(v: Value): PlainObject {
  const text = str(v, 1);
  return raising(() => queryToValue(syntax(() => parseQuery(text))));
}

function parseSchemaBuiltin(v: Value): PlainObject {
  const text = str(v, 1);
  return raising(() => schemaToValue(syntax(() => parseSchema(text))));
}

export const graphqlBuiltins: BuiltinTable = {
  "graphql.is_valid": { fn: (_ctx, q, s) => isValid(q, s) },
  "graphql.parse": { fn: (_ctx, q, s) => parse(q, s) },
  "graphql.parse_and_verify": { fn: (_ctx, q, s) => parseAndVerify(q, s) },
  "graphql.parse_query": { fn: (_ctx, q) => parseQueryBuiltin(q) },
  "graphql.parse_schema": { fn: (_ctx, s) => parseSchemaBuiltin(s) },
  "graphql.schema_is_valid": { fn: (_ctx, s) => schemaIsValid(s) },
};
