// Delta bundles' patch.json: validation against the roots, and the operations applied as OPA's
// store applies them (a copy is patched; the active data is never changed).
import { expect } from "chai";
import { RegoError } from "regoc";
import { applyPatch, parsePatch, type PatchOperation } from "../../../../runtime/bundle/patch.js";
import { thrown } from "../../../support/errors.js";

const entryError = (entry: string, message: string) => new RegoError("bundle_error", `${entry}: ${message}`);
const ops = (data: unknown[], roots = [""]): PatchOperation[] => parsePatch({ data }, roots, entryError);

describe("delta bundle patches", () => {
  it("add sets keys and inserts into arrays (by index or -); replace and remove need the target", () => {
    const data = { a: { list: [1, 3], k: "v" } };
    const out = applyPatch(
      data,
      ops([
        { op: "add", path: "/a/list/1", value: 2 },
        { op: "add", path: "/a/list/-", value: 4 },
        { op: "add", path: "a/new", value: { x: true } },
        { op: "replace", path: "/a/k", value: "w" },
        { op: "remove", path: "/a/list/0" },
      ]),
      "b",
    );
    expect(out).to.deep.equal({ a: { list: [2, 3, 4], k: "w", new: { x: true } } });
    expect(data).to.deep.equal({ a: { list: [1, 3], k: "v" } });
  });

  it("a missing target or parent is a bundle_error naming the operation", () => {
    expect(thrown(() => applyPatch({ a: {} }, ops([{ op: "remove", path: "/a/x" }]), "b")).message).to.equal("bundle b: delta: remove /a/x: the document does not exist");
    expect(thrown(() => applyPatch({}, ops([{ op: "add", path: "/a/x", value: 1 }]), "b")).message).to.equal("bundle b: delta: add /a/x: the parent document does not exist");
    expect(thrown(() => applyPatch({ a: [1] }, ops([{ op: "replace", path: "/a/1", value: 1 }]), "b")).message).to.equal("bundle b: delta: replace /a/1: no such array index");
  });

  it("operations are validated: op, path, a value for add/replace, paths under the roots", () => {
    expect(thrown(() => ops([{ op: "move", path: "/a" }])).message).to.contain("op must be add, remove or replace");
    expect(thrown(() => ops([{ op: "add", path: "/a" }])).message).to.contain("add needs a value");
    expect(thrown(() => ops([{ op: "remove", path: "/" }])).message).to.contain("must name a document below data");
    expect(thrown(() => ops([{ op: "remove", path: "/b/c" }], ["a"])).message).to.contain("manifest roots [a] do not permit data patch at path 'b/c'");
    expect(thrown(() => parsePatch([], [""], entryError)).message).to.contain('must be {"data": [operations]}');
  });
});
