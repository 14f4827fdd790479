// `--schema DIR` (regoc check/eval): each JSON file gets the key the type checker looks an
// annotation's schema ref up by, so annotations find them — including a segment that is a keyword.
import { expect } from "chai";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadSchemas } from "../../../../compiler/cli/sources.js";
import { planRego } from "../../../../compiler/compile.js";
import { RegoErrors, type RegoError } from "../../../../runtime/errors.js";

const closed = JSON.stringify({ type: "object", properties: { name: { type: "string" } }, additionalProperties: false });

function compileErrors(schemas: Record<string, string>, schemaRef: string): readonly RegoError[] {
  const policy = `package p

# METADATA
# schemas:
#   - input: ${schemaRef}
allow if input.nope == 1
`;
  try {
    planRego({ modules: { "p.rego": policy }, entrypoints: ["p/allow"], schemas });
    return [];
  } catch (e) {
    return e instanceof RegoErrors ? e.errors : [e as RegoError];
  }
}

describe("loadSchemas (--schema DIR)", () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "regoc-schemas-"));
    mkdirSync(join(dir, "k8s"));
    writeFileSync(join(dir, "in.json"), closed);
    writeFileSync(join(dir, "k8s", "pod.json"), closed);
    writeFileSync(join(dir, "my-app.json"), closed);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("keys each file as the checker prints a schema ref", () => {
    expect(Object.keys(loadSchemas(dir)).sort()).to.deep.equal(['schema.k8s.pod', 'schema["in"]', 'schema["my-app"]'].sort());
  });

  for (const ref of ["schema.k8s.pod", 'schema["in"]', 'schema["my-app"]']) {
    it(`an annotation naming ${ref} types input by that file`, () => {
      const errors = compileErrors(loadSchemas(dir), ref);
      expect(errors.map((e) => `${e.code}: ${e.message}`)).to.deep.equal(["rego_type_error: undefined ref: input.nope"]);
    });
  }
});
