// Manifest roots come from the bundle server: the checks must stay linear in their number, and
// answer as the definitions (one root contains another when its segments are a prefix of the other's).
import { expect } from "chai";
import fc from "fast-check";
import { RegoError } from "regoc";
import { readArchive } from "../../../../runtime/bundle/archive.js";
import { checkDataRoots, checkRootsOverlap, rootsOverlap, underRoots } from "../../../../runtime/bundle/roots.js";
import { tarGz } from "../../../support/bundleServer.js";

const seg = (r: string) => (r === "" ? [] : r.split("/"));
const isPrefix = (p: readonly string[], q: readonly string[]) => p.length <= q.length && p.every((s, i) => q[i] === s);
const contains = (a: string, b: string) => isPrefix(seg(a), seg(b)) || isPrefix(seg(b), seg(a));
const naiveUnder = (roots: string[], path: string[]) => roots.some((r) => isPrefix(seg(r), path));
const throws = (f: () => void) => {
  try {
    f();
    return false;
  } catch (e) {
    if (!(e instanceof RegoError)) throw e;
    return true;
  }
};

const root = fc.array(fc.constantFrom("a", "b", "a-b", "c"), { maxLength: 3 }).map((s) => s.join("/"));
const roots = fc.array(root, { minLength: 1, maxLength: 5 });
const path = fc.array(fc.constantFrom("a", "b", "a-b", "c"), { maxLength: 4 });

describe("bundle manifest roots", () => {
  it("a manifest of 5000 roots is read in well under a second, not in quadratic time", async () => {
    const many = Array.from({ length: 5000 }, (_, i) => `r${i}/x`);
    const archive = tarGz({ ".manifest": JSON.stringify({ revision: "1", roots: many }), "r1/x/p.rego": "package r1.x\n\nallow := true\n", "r2/x/data.json": '{"a": 1}' });
    const started = Date.now();
    const bundle = await readArchive(archive, { maxArchiveBytes: 1 << 20, maxUncompressedBytes: 1 << 24, maxEntries: 100 });
    expect(bundle.manifest.roots).to.have.length(5000);
    expect(rootsOverlap(many, many.map((r) => `${r}/y`))).to.not.equal(undefined);
    // a bound, not a measurement: pairwise checks of the roots take many seconds here
    expect(Date.now() - started).to.be.below(2000);
  });

  it("overlap, containment and data placement answer as their definitions", () => {
    fc.assert(
      fc.property(roots, roots, path, (a, b, p) => {
        const overlapping = a.some((x, i) => a.some((y, j) => i < j && contains(x, y)));
        expect(throws(() => checkRootsOverlap(a))).to.equal(overlapping);
        expect(rootsOverlap(a, b) !== undefined).to.equal(a.some((x) => b.some((y) => contains(x, y))));
        expect(underRoots(a, p)).to.equal(naiveUnder(a, p));
        // data with one leaf at p: allowed when p is under a root, or an object on the way to one
        const data: Record<string, unknown> = {};
        let node = data;
        p.forEach((s, i) => {
          const next: Record<string, unknown> = {};
          node[s] = i === p.length - 1 ? 1 : next;
          node = next;
        });
        const leaves = p.length === 0 ? [[] as string[]] : [p];
        const permitted = leaves.every((l) => naiveUnder(a, l)) || (p.length === 0 && a.length > 0);
        expect(throws(() => checkDataRoots(data, a))).to.equal(!permitted);
      }),
      { seed: 20261129, numRuns: 2000 },
    );
  });

  it("an overlapping manifest names the first pair, as listed", () => {
    expect(() => checkRootsOverlap(["x", "a/b", "c", "a"])).to.throw("manifest has overlapped roots: 'a/b' and 'a'");
    expect(() => checkRootsOverlap(["a", "b", "a"])).to.throw("manifest has overlapped roots: 'a' and 'a'");
  });
});
