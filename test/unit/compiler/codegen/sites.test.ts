// A site table numbers each distinct site (name, file text, row, column) once, whatever the sizes
// of its parts (packed into one number when small, as text beyond): the same numbers as a table
// keyed by the site's parts as text, and the JSON the runtime reads lists each site once.
import assert from "node:assert/strict";
import fc from "fast-check";
import { SiteTable } from "../../../../compiler/codegen/emit/sites.js";

const files = [{ value: "a.rego" }, { value: "b.rego" }, { value: "a.rego" }, { value: "" }];
const coordinate = fc.oneof(fc.integer({ min: 0, max: 40 }), fc.constantFrom(2 ** 15 - 1, 2 ** 15, 2 ** 30 - 1, 2 ** 30, 2 ** 32), fc.integer({ min: 0, max: 2 ** 40 }));
const site = fc.record({
  name: fc.constantFrom("count", "concat", "rule", "object", "sprintf"),
  loc: fc.record({ file: fc.integer({ min: 0, max: files.length }), row: coordinate, col: coordinate }),
});

describe("codegen: SiteTable", () => {
  it("numbers sites as a table keyed by their text would", () => {
    fc.assert(
      fc.property(fc.array(site, { maxLength: 60 }), (sites) => {
        const table = new SiteTable(files);
        const model = new Map<string, number>();
        for (const s of sites) {
          const key = JSON.stringify([s.name, files[s.loc.file]?.value ?? "", s.loc.row, s.loc.col]);
          if (!model.has(key)) model.set(key, model.size);
          assert.equal(table.add(s.name, s.loc.file, s.loc.row, s.loc.col), model.get(key));
        }
        assert.equal(table.size, model.size);
        const json = JSON.parse(table.json()) as { names: string[]; files: string[]; sites: number[] };
        const listed = [];
        for (let i = 0; i < json.sites.length; i += 4) {
          listed.push(JSON.stringify([json.names[json.sites[i]!], json.files[json.sites[i + 1]!], json.sites[i + 2], json.sites[i + 3]]));
        }
        assert.deepEqual(listed, [...model.keys()]);
      }),
    );
  });

  it("keeps sites apart whose parts would overlap if packed carelessly", () => {
    const table = new SiteTable(files);
    const a = table.add("count", 0, 1, 2 ** 15);
    const b = table.add("count", 0, 2, 0);
    const c = table.add("count", 0, 2 ** 30, 0);
    const d = table.add("count", 1, 0, 0);
    assert.equal(new Set([a, b, c, d]).size, 4);
    // Past 256 names a name's number no longer fits its bits: name 256 at column 0 would pack as
    // name 0 at column 1.
    const many = new SiteTable(files);
    const numbers = new Set<number>();
    for (let i = 0; i < 300; i++) {
      numbers.add(many.add(`b${i}`, 0, 1, 0));
      numbers.add(many.add(`b${i}`, 0, 1, 1));
    }
    assert.equal(numbers.size, 600);
    assert.equal(many.size, 600);
  });
});
