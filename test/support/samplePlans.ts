// Representative plans, built by hand in OPA's IR: the golden tests' plans (test/golden/codegen)
// and the JavaScript-output test's. Each covers a part of the code generator a policy exercises.
import { F, L, PolicyBuilder, T, block, ruleFunc, st } from "./plans.js";

/** authz: `default allow := false; allow if input.user.role == "admin"; allow if { input.method == "GET"; startswith(input.path, "/public") }`. */
export function authz(): PolicyBuilder {
  const b = new PolicyBuilder();
  b.builtin("equal", 2, { type: "boolean" }).builtin("startswith", 2, { type: "boolean" });
  b.func("g0.data.authz.allow", [0, 1], 2, [
    block(
      st("ResetLocalStmt", { target: 3 }),
      b.dot(L(0), b.s("user"), 4),
      b.dot(L(4), b.s("role"), 5),
      b.call("equal", [L(5), b.s("admin")], 6),
      st("NotEqualStmt", { a: L(6), b: F }),
      b.once(T, 3),
    ),
    block(st("IsDefinedStmt", { source: 3 }), b.once(L(3), 2)),
    block(
      st("ResetLocalStmt", { target: 3 }),
      b.dot(L(0), b.s("method"), 7),
      st("EqualStmt", { a: L(7), b: b.s("GET") }),
      b.dot(L(0), b.s("path"), 8),
      b.call("startswith", [L(8), b.s("/public")], 9),
      st("NotEqualStmt", { a: L(9), b: F }),
      b.once(T, 3),
    ),
    block(st("IsDefinedStmt", { source: 3 }), b.once(L(3), 2)),
    block(st("IsUndefinedStmt", { source: 2 }), b.once(F, 2)),
    block(st("ReturnLocalStmt", { source: 2 })),
  ]);
  b.entry("authz/allow", "g0.data.authz.allow");
  return b;
}

/** A partial set: `deny contains item.id if { some item in input.items; item.price > data.limits.max }`. */
export function partialSet(): PolicyBuilder {
  const b = new PolicyBuilder();
  b.builtin("gt", 2, { type: "boolean" });
  b.func("g0.data.shop.deny", [0, 1], 2, [
    block(st("MakeSetStmt", { target: 2 })),
    block(
      b.dot(L(0), b.s("items"), 3),
      b.scan(
        3,
        4,
        5,
        b.dot(L(5), b.s("price"), 6),
        b.dot(L(1), b.s("limits"), 7),
        b.dot(L(7), b.s("max"), 8),
        b.call("gt", [L(6), L(8)], 9),
        st("NotEqualStmt", { a: L(9), b: F }),
        b.dot(L(5), b.s("id"), 10),
        st("SetAddStmt", { set: 2, value: L(10) }),
      ),
    ),
    block(st("ReturnLocalStmt", { source: 2 })),
  ]);
  b.entry("shop/deny", "g0.data.shop.deny");
  return b;
}

/** `with`, a memoised rule, `not`, CallDynamic and a big number. */
export function withAndDynamic(): PolicyBuilder {
  const b = new PolicyBuilder();
  ruleFunc(b, "g0.data.lib.level", [b.dot(L(0), b.s("level"), 4), b.once(L(4), 3)], b.s("none"));
  b.func("g0.data.lib.big", [0, 1], 2, [block(b.num("123456789012345678901234", 2)), block(st("ReturnLocalStmt", { source: 2 }))]);
  const dyn = st("CallDynamicStmt", { path: [b.s("g0"), b.s("lib"), L(5)], args: [0, 1], result: 6 });
  const fallback = block(b.dot(L(1), b.s("lib"), 7), b.dot(L(7), L(5), 8), b.assign(L(8), 6), b.brk(1));
  ruleFunc(b, "g0.data.app.report", [
    b.dot(L(0), b.s("rule"), 5),
    b.blocks(block(b.blocks(block(b.blocks(block(dyn, b.brk(1)), fallback), b.brk(2))), b.not(st("EqualStmt", { a: L(6), b: b.s("none") })))),
    b.call("g0.data.lib.level", [L(0), L(1)], 9),
    b.assign(L(0), 10),
    b.with(0, ["level"], b.s("debug"), b.call("g0.data.lib.level", [L(0), L(1)], 11), b.with(0, null, L(10), b.call("g0.data.lib.level", [L(0), L(1)], 12))),
    st("MakeArrayStmt", { capacity: 3, target: 13 }),
    st("ArrayAppendStmt", { array: 13, value: L(6) }),
    st("ArrayAppendStmt", { array: 13, value: L(9) }),
    st("ArrayAppendStmt", { array: 13, value: L(11) }),
    b.once(L(13), 3),
  ]);
  b.entry("app/report", "g0.data.app.report");
  return b;
}

/** A query with two bindings over a loop: a result set. */
export function query(): PolicyBuilder {
  const b = new PolicyBuilder();
  b.plan(
    "query",
    block(
      b.dot(L(0), b.s("users"), 2),
      b.scan(
        2,
        3,
        4,
        b.dot(L(4), b.s("name"), 5),
        st("MakeObjectStmt", { target: 6 }),
        st("ObjectInsertStmt", { object: 6, key: b.s("i"), value: L(3) }),
        st("ObjectInsertStmt", { object: 6, key: b.s("name"), value: L(5) }),
        st("ResultSetAddStmt", { value: 6 }),
      ),
    ),
  );
  return b;
}

/** Hostile text everywhere a policy can put text: strings, keys, rule, plan and file names. */
export function hostile(): PolicyBuilder {
  const b = new PolicyBuilder();
  b.files[0] = "evil */ file\u2028.rego";
  const evil = 'a"b\\c`${x}*/\u2028\u2029\ud800</script>';
  ruleFunc(b, "g0.data.x.`${evil}`*/", [b.dot(L(0), b.s(evil), 4), b.dot(L(4), b.s("__proto__"), 5), st("MakeObjectStmt", { target: 6 }), st("ObjectInsertStmt", { object: 6, key: b.s(evil), value: L(5) }), b.once(L(6), 3)]);
  b.entry("x/`${evil}`*/\n", "g0.data.x.`${evil}`*/");
  return b;
}
