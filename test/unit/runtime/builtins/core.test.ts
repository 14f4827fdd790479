// The core builtin groups are registered under OPA's exact names, with the arity that OPA's
// capabilities declare (fn takes the context, then exactly the declared arguments).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "chai";
import { getBuiltin } from "../../../../runtime/builtins/registry.js";
import { loadAllBuiltins } from "../../../../runtime/builtins/catalog.js";
import { describeWithShared, sharedDir } from "../../../support/shared.js";

const CORE = [
  ...["equal", "neq", "lt", "lte", "gt", "gte"],
  ...["plus", "minus", "mul", "div", "rem", "abs", "round", "ceil", "floor", "numbers.range", "numbers.range_step"],
  ...["bits.and", "bits.or", "bits.xor", "bits.negate", "bits.lsh", "bits.rsh"],
  ...["count", "sum", "product", "max", "min", "sort", "all", "any"],
  ...["and", "or", "intersection", "union", "set_diff"],
  ...["array.concat", "array.slice", "array.reverse", "array.flatten"],
  ...["object.get", "object.keys", "object.union", "object.union_n", "object.remove", "object.filter", "object.subset"],
  ...["json.filter", "json.remove", "json.patch"],
  ...["is_array", "is_boolean", "is_null", "is_number", "is_object", "is_set", "is_string", "type_name"],
  ...["to_number", "cast_array", "cast_boolean", "cast_null", "cast_object", "cast_set", "cast_string"],
  ...["internal.member_2", "internal.member_3", "internal.print", "print", "internal.test_case", "internal.template_string", "trace"],
  ...["walk", "graph.reachable", "graph.reachable_paths"],
];

interface Decl {
  name: string;
  decl: { args?: unknown[]; variadic?: unknown };
}

describeWithShared("builtins: core groups match OPA's capabilities", () => {
  const caps = JSON.parse(readFileSync(join(sharedDir, "opa", "capabilities-v1.20.2.json"), "utf8")) as { builtins: Decl[] };
  const byName = new Map(caps.builtins.map((b) => [b.name, b]));
  before(loadAllBuiltins);
  for (const name of CORE) {
    it(name, () => {
      const decl = byName.get(name);
      expect(decl, `${name} in capabilities`).to.not.equal(undefined);
      const def = getBuiltin(name);
      expect(def, `${name} registered`).to.not.equal(undefined);
      if (decl!.decl.variadic !== undefined) expect(def!.fn.length).to.equal(1);
      else expect(def!.fn.length - 1).to.equal((decl!.decl.args ?? []).length);
      expect(def!.async ?? false).to.equal(false);
      expect(def!.nondeterministic ?? false).to.equal(false);
    });
  }
});
