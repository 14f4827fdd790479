// Every builtin of OPA's categories, registered in the one registry (registry.ts) when this module
// loads: what the compiler, Engine, Authorizer and `regoc test` need, as they may compile any
// policy. A generated module does not import it: it imports the categories it calls, one module
// each (`regoc/builtins/<category>`), so that a bundler keeps only those.
import { registerCategories, type BuiltinTable } from "./registry.js";
import { comparisonBuiltins } from "./comparison.js";
import { arithmeticBuiltins } from "./arithmetic.js";
import { bitsBuiltins } from "./bits.js";
import { aggregatesBuiltins } from "./aggregates.js";
import { setsBuiltins } from "./sets.js";
import { arraysBuiltins } from "./arrays.js";
import { objectsBuiltins } from "./objects.js";
import { typesBuiltins } from "./types.js";
import { castsBuiltins } from "./casts.js";
import { internalBuiltins } from "./internal.js";
import { graphsBuiltins } from "./graphs.js";
import { stringsBuiltins } from "./strings.js";
import { encodingBuiltins } from "./encoding.js";
import { jsonBuiltins } from "./json.js";
import { yamlBuiltins } from "./yaml.js";
import { unitsBuiltins } from "./units.js";
import { semverBuiltins } from "./semver.js";
import { uuidBuiltins } from "./uuid.js";
import { randBuiltins } from "./rand.js";
import { regexBuiltins } from "./regex.js";
import { globBuiltins } from "./glob.js";
import { templatesBuiltins } from "./templates.js";
import { timeBuiltins } from "./time.js";
import { cryptoBuiltins } from "./crypto.js";
import { jwtBuiltins } from "./jwt.js";
import { providersBuiltins } from "./providers.js";
import { netBuiltins } from "./net.js";
import { httpBuiltins } from "./http.js";
import { graphqlBuiltins } from "./graphql.js";
import { jsonschemaBuiltins } from "./jsonschema.js";
import { regoBuiltins } from "./rego.js";
import { opaBuiltins } from "./opa.js";

// Categories, one file each, named after OPA's categories; add new categories here. A category's
// file is runtime/builtins/<category>.ts and exports its table as `<category>Builtins`.
const categories: Readonly<Record<string, BuiltinTable>> = {
  comparison: comparisonBuiltins,
  arithmetic: arithmeticBuiltins,
  bits: bitsBuiltins,
  aggregates: aggregatesBuiltins,
  sets: setsBuiltins,
  arrays: arraysBuiltins,
  objects: objectsBuiltins,
  types: typesBuiltins,
  casts: castsBuiltins,
  internal: internalBuiltins,
  graphs: graphsBuiltins,
  strings: stringsBuiltins,
  encoding: encodingBuiltins,
  json: jsonBuiltins,
  yaml: yamlBuiltins,
  units: unitsBuiltins,
  semver: semverBuiltins,
  uuid: uuidBuiltins,
  rand: randBuiltins,
  regex: regexBuiltins,
  glob: globBuiltins,
  templates: templatesBuiltins,
  time: timeBuiltins,
  crypto: cryptoBuiltins,
  jwt: jwtBuiltins,
  providers: providersBuiltins,
  net: netBuiltins,
  http: httpBuiltins,
  graphql: graphqlBuiltins,
  jsonschema: jsonschemaBuiltins,
  rego: regoBuiltins,
  opa: opaBuiltins,
};

registerCategories(categories);

/** The category names (each a module `regoc/builtins/<name>` exporting `<name>Builtins`). */
export const CATEGORIES: readonly string[] = Object.freeze(Object.keys(categories));

/** A category's table as its module exports it (`{ <name>Builtins: table }`). */
export function categoryModule(category: string): Readonly<Record<string, BuiltinTable>> | undefined {
  return Object.hasOwn(categories, category) ? { [`${category}Builtins`]: categories[category]! } : undefined;
}
