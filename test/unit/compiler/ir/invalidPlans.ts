// Plans for the decode/validate tests: a valid plan, and the malformed plans made from it (each
// case mutates a fresh copy; `path` and `message` are what the refusal must say).
export type J = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A valid plan: eval calls g0.data.test.p (which scans input and calls `equal`). */
export function valid(): J {
  const loc = { file: 0, row: 1, col: 1 };
  const l = (n: number) => ({ type: "local", value: n });
  return {
    static: {
      strings: [{ value: "result" }, { value: "x" }, { value: "1.5" }],
      builtin_funcs: [{ name: "equal", decl: { type: "function", args: [{ type: "any" }, { type: "any" }], result: { type: "boolean" } } }],
      files: [{ value: "p.rego" }],
    },
    plans: {
      plans: [
        {
          name: "eval",
          blocks: [
            {
              stmts: [
                { type: "CallStmt", stmt: { func: "g0.data.test.p", args: [l(0), l(1)], result: 2, ...loc } },
                { type: "MakeObjectStmt", stmt: { target: 3, ...loc } },
                { type: "ObjectInsertStmt", stmt: { object: 3, key: { type: "string_index", value: 0 }, value: l(2), ...loc } },
                { type: "ResultSetAddStmt", stmt: { value: 3, ...loc } },
              ],
            },
          ],
        },
      ],
    },
    funcs: {
      funcs: [
        {
          name: "g0.data.test.p",
          params: [0, 1],
          return: 2,
          path: ["g0", "test", "p"],
          blocks: [
            {
              stmts: [
                {
                  type: "ScanStmt",
                  stmt: {
                    source: 0,
                    key: 3,
                    value: 4,
                    block: {
                      stmts: [
                        { type: "CallStmt", stmt: { func: "equal", args: [l(4), { type: "string_index", value: 1 }], result: 5, ...loc } },
                        { type: "MakeNumberRefStmt", stmt: { Index: 2, target: 2, ...loc } },
                        { type: "BreakStmt", stmt: { index: 1, ...loc } },
                      ],
                    },
                    ...loc,
                  },
                },
              ],
            },
            { stmts: [{ type: "ReturnLocalStmt", stmt: { source: 2, ...loc } }] },
          ],
        },
      ],
    },
  };
}

/** Renames OPA's `Index` of every MakeNumberRefStmt to `index` (the decoded shape). */
export function withLowerIndex(plan: J): J {
  const visit = (x: unknown): void => {
    if (Array.isArray(x)) x.forEach(visit);
    else if (typeof x === "object" && x !== null) {
      const o = x as J;
      if (o.type === "MakeNumberRefStmt" && o.stmt && "Index" in o.stmt) {
        o.stmt.index = o.stmt.Index;
        delete o.stmt.Index;
      }
      Object.values(o).forEach(visit);
    }
  };
  visit(plan);
  return plan;
}

const SCAN = "funcs.funcs[0].blocks[0].stmts[0].stmt";
const BODY = `${SCAN}.block.stmts`;

export const cases: Array<{ note: string; mutate: (p: J) => unknown; path: string; message: RegExp }> = [
  { note: "not an object", mutate: () => [], path: "plan", message: /expected object/ },
  { note: "unknown statement type", mutate: (p) => (p.funcs.funcs[0].blocks[0].stmts[0].type = "GotoStmt"), path: "funcs.funcs[0].blocks[0].stmts[0].type", message: /unknown statement type "GotoStmt"/ },
  { note: "operand not an object", mutate: (p) => (p.funcs.funcs[0].blocks[0].stmts[0].stmt.block.stmts[0].stmt.args[0] = 4), path: `${BODY}[0].stmt.args[0]`, message: /expected operand$/ },
  { note: "operand of unknown kind", mutate: (p) => (p.funcs.funcs[0].blocks[0].stmts[0].stmt.block.stmts[0].stmt.args[1].type = "number"), path: `${BODY}[0].stmt.args[1].type`, message: /expected operand type/ },
  { note: "negative local", mutate: (p) => (p.funcs.funcs[0].blocks[0].stmts[0].stmt.key = -1), path: `${SCAN}.key`, message: /expected local/ },
  { note: "fractional local", mutate: (p) => (p.plans.plans[0].blocks[0].stmts[3].stmt.value = 1.5), path: "plans.plans[0].blocks[0].stmts[3].stmt.value", message: /expected local/ },
  { note: "local as a string", mutate: (p) => (p.funcs.funcs[0].return = "2"), path: "funcs.funcs[0].return", message: /expected local/ },
  { note: "missing field", mutate: (p) => delete p.funcs.funcs[0].blocks[0].stmts[0].stmt.source, path: `${SCAN}.source`, message: /expected local/ },
  { note: "block not an object", mutate: (p) => (p.funcs.funcs[0].blocks[0].stmts[0].stmt.block = []), path: `${SCAN}.block`, message: /expected object/ },
  { note: "stmts not an array", mutate: (p) => (p.funcs.funcs[0].blocks[1].stmts = {}), path: "funcs.funcs[0].blocks[1].stmts", message: /expected array/ },
  { note: "string index out of range", mutate: (p) => (p.funcs.funcs[0].blocks[0].stmts[0].stmt.block.stmts[0].stmt.args[1].value = 9), path: `${BODY}[0].stmt.args[1].value`, message: /string index 9 out of range \(3 strings\)/ },
  { note: "number literal index out of range", mutate: (p) => (p.funcs.funcs[0].blocks[0].stmts[0].stmt.block.stmts[1].stmt.Index = 3), path: `${BODY}[1].stmt.index`, message: /string index 3 out of range/ },
  { note: "number literal that is not a number", mutate: (p) => (p.funcs.funcs[0].blocks[0].stmts[0].stmt.block.stmts[1].stmt.Index = 1), path: `${BODY}[1].stmt.index`, message: /string "x" is not a number/ },
  { note: "missing func", mutate: (p) => (p.plans.plans[0].blocks[0].stmts[0].stmt.func = "g0.data.test.q"), path: "plans.plans[0].blocks[0].stmts[0].stmt.func", message: /unknown function "g0.data.test.q": not a func and not in static.builtin_funcs/ },
  { note: "builtin not declared", mutate: (p) => (p.static.builtin_funcs = []), path: `${BODY}[0].stmt.func`, message: /unknown function "equal"/ },
  { note: "wrong number of func arguments", mutate: (p) => p.plans.plans[0].blocks[0].stmts[0].stmt.args.pop(), path: "plans.plans[0].blocks[0].stmts[0].stmt.args", message: /takes 2 arguments, got 1/ },
  { note: "wrong number of builtin arguments", mutate: (p) => p.funcs.funcs[0].blocks[0].stmts[0].stmt.block.stmts[0].stmt.args.pop(), path: `${BODY}[0].stmt.args`, message: /builtin "equal" takes 2 arguments, got 1/ },
  { note: "break out of the func", mutate: (p) => (p.funcs.funcs[0].blocks[0].stmts[0].stmt.block.stmts[2].stmt.index = 3), path: `${BODY}[2].stmt.index`, message: /break index 3 leaves the func \(3 enclosing levels\)/ },
  { note: "file index out of range", mutate: (p) => (p.funcs.funcs[0].blocks[1].stmts[0].stmt.file = 1), path: "funcs.funcs[0].blocks[1].stmts[0].stmt.file", message: /file index 1 out of range/ },
  { note: "ReturnLocal in a plan", mutate: (p) => p.plans.plans[0].blocks[0].stmts.push({ type: "ReturnLocalStmt", stmt: { source: 2 } }), path: "plans.plans[0].blocks[0].stmts[4].stmt", message: /ReturnLocalStmt outside a func/ },
  { note: "ResultSetAdd in a func", mutate: (p) => p.funcs.funcs[0].blocks[1].stmts.unshift({ type: "ResultSetAddStmt", stmt: { value: 2 } }), path: "funcs.funcs[0].blocks[1].stmts[0].stmt", message: /ResultSetAddStmt outside a plan/ },
  { note: "duplicate func", mutate: (p) => p.funcs.funcs.push(p.funcs.funcs[0]), path: "funcs.funcs[1].name", message: /duplicate func name/ },
  { note: "duplicate plan", mutate: (p) => p.plans.plans.push(p.plans.plans[0]), path: "plans.plans[1].name", message: /duplicate plan name "eval"/ },
  { note: "duplicate params", mutate: (p) => (p.funcs.funcs[0].params = [0, 0]), path: "funcs.funcs[0].params[1]", message: /duplicate param local 0/ },
  { note: "plan mutating input", mutate: (p) => (p.plans.plans[0].blocks[0].stmts[2].stmt.object = 0), path: "plans.plans[0].blocks[0].stmts[2].stmt", message: /mutates local 0, which holds the input or data document/ },
  {
    note: "recursion",
    mutate: (p) => p.funcs.funcs[0].blocks[1].stmts.unshift({ type: "CallStmt", stmt: { func: "g0.data.test.p", args: [{ type: "local", value: 0 }, { type: "local", value: 1 }], result: 9 } }),
    path: "funcs.funcs[0]",
    message: /recursive call: "g0.data.test.p" -> "g0.data.test.p"/,
  },
  {
    // p -> q -> r -> q: the message names the cycle only, not the chain that led to it.
    note: "recursion through other funcs",
    mutate: (p) => {
      const loc = { file: 0, row: 1, col: 1 };
      const call = (func: string) => ({ type: "CallStmt", stmt: { func, args: [{ type: "local", value: 0 }, { type: "local", value: 1 }], result: 2, ...loc } });
      const func = (name: string, callee: string) => ({ name, params: [0, 1], return: 2, path: ["g0", "test", name.slice(-1)], blocks: [{ stmts: [call(callee)] }] });
      p.funcs.funcs.push(func("g0.data.test.q", "g0.data.test.r"), func("g0.data.test.r", "g0.data.test.q"));
      p.funcs.funcs[0].blocks[1].stmts.unshift({ ...call("g0.data.test.q"), stmt: { ...call("g0.data.test.q").stmt, result: 9 } });
    },
    path: "funcs.funcs[1]",
    message: /recursive call: "g0.data.test.q" -> "g0.data.test.r" -> "g0.data.test.q"$/,
  },
  { note: "integer out of range", mutate: (p) => p.funcs.funcs[0].blocks[1].stmts.unshift({ type: "MakeNumberIntStmt", stmt: { value: 2 ** 60, target: 3 } }), path: "funcs.funcs[0].blocks[1].stmts[0].stmt.value", message: /integer out of range/ },
  { note: "bool operand value", mutate: (p) => (p.plans.plans[0].blocks[0].stmts[2].stmt.value = { type: "bool", value: "true" }), path: "plans.plans[0].blocks[0].stmts[2].stmt.value.value", message: /expected boolean/ },
  { note: "static.strings entry", mutate: (p) => (p.static.strings[1] = { value: 1 }), path: "static.strings[1].value", message: /expected string/ },
  { note: "plans not an object", mutate: (p) => (p.plans = []), path: "plans", message: /expected object/ },
  { note: "no plans at all", mutate: (p) => (p.plans = { plans: null }), path: "plans.plans", message: /the plan has no entrypoints/ },
  {
    note: "CallDynamic without 3 enclosing blocks",
    mutate: (p) =>
      p.funcs.funcs[0].blocks[1].stmts.unshift({ type: "CallDynamicStmt", stmt: { path: [{ type: "string_index", value: 1 }], args: [0, 1], result: 9 } }),
    path: "funcs.funcs[0].blocks[1].stmts[0].stmt",
    message: /CallDynamicStmt needs 3 enclosing blocks/,
  },
  {
    note: "with path index out of range",
    mutate: (p) =>
      p.funcs.funcs[0].blocks[1].stmts.unshift({ type: "WithStmt", stmt: { local: 0, path: [7], value: { type: "bool", value: true }, block: { stmts: [] } } }),
    path: "funcs.funcs[0].blocks[1].stmts[0].stmt.path[0]",
    message: /string index 7 out of range/,
  },
];
