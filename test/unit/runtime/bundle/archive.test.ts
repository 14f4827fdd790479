// Data files in a bundle archive are placed as OPA's bundle reader places them (mktree around the
// decoded value, then a merge): any value at a directory's path, an empty YAML file being null.
import { expect } from "chai";
import { readArchive } from "../../../../runtime/bundle/archive.js";
import { DEFAULT_LIMITS } from "../../../../runtime/bundle/client.js";
import { tarGz } from "../../../support/bundleServer.js";

describe("bundle archive: data files", () => {
  it("an empty data.yaml is null, a data.json holding an array is that array", async () => {
    const b = await readArchive(tarGz({ "a/x/data.yaml": "", "a/y/data.json": "[1,2]", "a/data.json": '{"z": 1}' }), DEFAULT_LIMITS);
    expect(b.data).to.deep.equal({ a: { x: null, y: [1, 2], z: 1 } });
  });

  it("two values at one path conflict, naming the entry", async () => {
    const e = await readArchive(tarGz({ "a/data.json": '{"x": 1}', "a/x/data.yaml": "" }), DEFAULT_LIMITS).catch((err: unknown) => err as Error);
    expect((e as { code?: string }).code).to.equal("bundle_error");
    expect((e as Error).message).to.match(/a\/x\/data\.yaml.*data\.a\.x is defined by more than one file/);
  });
});
