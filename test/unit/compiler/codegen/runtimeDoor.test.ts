// Generated code's door to the runtime: `regoc/eval` exports every value name the generator may
// import (names.ts's RT) and nothing else, and every builtin category is a module of its own under
// `regoc/builtins/<category>` exporting the table the generator names.
import assert from "node:assert/strict";
import { RT, RT_TYPES, type RuntimeName } from "../../../../compiler/codegen/names.js";
import { readFileSync } from "node:fs";
import { CATEGORIES, builtinCategory, builtinNames } from "../../../../runtime/builtins/catalog.js";
import { builtinIndexText } from "../../../../scripts/gen-builtin-index.js";

describe("codegen: the runtime's doors for generated code", () => {
  it("regoc/eval exports exactly the runtime values generated code may import", async () => {
    const door = await import("regoc/eval");
    const values = (Object.keys(RT) as RuntimeName[]).filter((n) => !RT_TYPES.has(n)).map((n) => RT[n]);
    assert.deepEqual(Object.keys(door).sort(), values.sort());
  });

  it("each category's module exports its table, holding exactly the builtins of that category", async () => {
    const seen = new Set<string>();
    for (const category of CATEGORIES) {
      const mod = (await import(`regoc/builtins/${category}`)) as Record<string, object>;
      const table = mod[`${category}Builtins`];
      assert.ok(table, category);
      for (const name of Object.keys(table)) {
        assert.equal(builtinCategory(name), category, name);
        seen.add(name);
      }
    }
    assert.deepEqual([...seen].sort(), builtinNames().filter((n) => builtinCategory(n) !== undefined));
  });

  it("the builtin index (which category holds each builtin, which are async) is what the category files say", async () => {
    const committed = readFileSync(new URL("../../../../runtime/builtins/catalogIndex.ts", import.meta.url), "utf8");
    assert.equal(committed, await builtinIndexText(), "runtime/builtins/catalogIndex.ts is stale: npm run gen-builtin-index");
  });
});
