// A small policy typed by JSON Schemas (METADATA `schemas:` at package scope), shared by the
// golden test (test/golden/codegen/schema_input.ts) and the schema-types tests: a closed object
// (`user`, required keys), a nested object, an array of strings, a union (anyOf), a tuple, a
// recursive $ref (`tree`) and an open object (`labels`); `data.roles` has a schema of its own.
import { planRegoDetailed, type PlannedRego } from "regoc/compiler";

export const SCHEMA_POLICY = `# METADATA
# schemas:
#   - input: schema.request
#   - data.roles: schema.roles
package shop

allow if {
	input.user.name == "alice"
	"admin" in input.user.groups
}

allow if data.roles[input.user.name] == "owner"

allow if input.tree.children[0].value > input.limit
`;

export const SCHEMAS: Record<string, string> = {
  "schema.request": JSON.stringify({
    type: "object",
    required: ["user"],
    additionalProperties: false,
    properties: {
      user: {
        type: "object",
        required: ["name"],
        additionalProperties: false,
        properties: {
          name: { type: "string" },
          groups: { type: "array", items: { type: "string" } },
          address: { type: "object", properties: { city: { type: "string" } }, additionalProperties: false },
        },
      },
      limit: { anyOf: [{ type: "number" }, { type: "string" }] },
      pair: { type: "array", items: [{ type: "string" }, { type: "boolean" }] },
      labels: { type: "object", additionalProperties: { type: "string" } },
      tree: { $ref: "#/definitions/node" },
    },
    definitions: {
      node: {
        type: "object",
        additionalProperties: false,
        properties: { value: { type: "number" }, children: { type: "array", items: { $ref: "#/definitions/node" } } },
      },
    },
  }),
  "schema.roles": JSON.stringify({ type: "object", additionalProperties: { type: "string" } }),
};

/** The policy planned with its schemas (entrypoint `shop/allow`). */
export function planSchemaPolicy(): PlannedRego {
  return planRegoDetailed({ modules: { "shop.rego": SCHEMA_POLICY }, entrypoints: ["shop/allow"], schemas: SCHEMAS });
}
