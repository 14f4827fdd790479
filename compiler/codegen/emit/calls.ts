// CallStmt and CallDynamicStmt, and the module's dynamic dispatcher.
//   - a func: `r = f($, args...); if (r === undefined) <undefined>` — args may be undefined (the
//     callee decides); memoisation happens inside memoised funcs;
//   - a builtin that never fails (comparisons, membership, type tests): the runtime's operator,
//     `r = gte(a, b)`, `r = isStringType(x)`;
//   - startswith, endswith, contains: the string method on strings, else the builtin's call below
//     (`r = typeof a === "string" ? a.startsWith("x") : call2($, startswith, a, "x")`);
//   - another builtin: through the registry's invoke policy with a module-level call site constant,
//     declared with the module's table of sites (`call2($, c3, a, b)`: undefined when an argument is undefined or the builtin fails in
//     non-strict mode); void builtins are called for their effect and never fail; async builtins
//     are awaited (their plan gets an async entrypoint);
//   - CallDynamic: the dispatcher maps the path (JSON text) to a func; no such func → undefined
//     (break 0, the planner's fallback block follows); the func's result undefined → break 3.
import type { CallStmt, Func, Operand, Stmt, StmtMap } from "../../ir/types.js";
import { OPERATOR_BUILTINS, STRING_METHOD_BUILTINS } from "../analysis/calls.js";
import { _, join, lit, Lines, Name, type Code } from "../code.js";
import type { Emit, FuncEmitter, ModuleEmitter } from "./context.js";

type E<T extends keyof StmtMap> = Emit<StmtMap[T]>;

/** The call of a func of the policy (`await`ed when async): `g0DataTAllow($, input, data)`. */
export function funcCall(fe: FuncEmitter, index: number, s: CallStmt): Code {
  const list: Code[] = [fe.state]; // the call's arguments
  for (const a of s.args) list.push(fe.operand(a));
  const call = _`${fe.mod.callFunc(index)}(${join(list)})`;
  return fe.mod.calls.isAsyncAt(index) ? _`await ${call}` : call;
}

export const callStmt: E<"CallStmt"> = (fe, s) => {
  const mod = fe.mod;
  const r = fe.local(s.result);
  const index = mod.funcIndex.get(s.func);
  if (index !== undefined) return fe.out.line`${r} = ${funcCall(fe, index, s)}; if (${r} === undefined) ${fe.jump(0)}`;
  const op = OPERATOR_BUILTINS.get(s.func);
  if (op !== undefined && s.args.length === op[1]) {
    // A builtin that never fails: the runtime's operator, without a call site or the state.
    const operator = mod.rt(op[0]);
    return fe.out.line`${r} = ${operator}(${join(s.args.map((a) => fe.operand(a)))}); if (${r} === undefined) ${fe.jump(0)}`;
  }
  const method = STRING_METHOD_BUILTINS.get(s.func);
  if (method !== undefined && s.args.length === 2 && stringMethodCall(fe, s, method)) return false;
  const decl = mod.builtinDecls.get(s.func)!.decl;
  const site = mod.builtinSite(s.func, s);
  const args: Code[] = [];
  for (const a of s.args) args.push(fe.operand(a));
  if (decl.result === undefined || decl.result === null) {
    return fe.out.line`${mod.rt("callVoid")}(${fe.state}, ${site}, [${args}]);`;
  }
  if (mod.calls.isAsyncBuiltin(s.func)) return fe.out.line`${r} = await ${mod.rt("callAsync")}(${fe.state}, ${site}, [${args}]); if (${r} === undefined) ${fe.jump(0)}`;
  return fe.out.line`${r} = ${siteCall(fe, site, args)}; if (${r} === undefined) ${fe.jump(0)}`;
};

/** An operator's call whose result only the next statement reads, testing it against false: one
 * test, `if (!gte(a, b)) break b0;` (an undefined result, when an operand is, fails as false does).
 * True when written. */
export function operatorTest(fe: FuncEmitter, s: CallStmt, next: Stmt | undefined): boolean {
  const op = OPERATOR_BUILTINS.get(s.func);
  if (op === undefined || s.args.length !== op[1] || next?.type !== "NotEqualStmt") return false;
  const { a, b } = next.stmt;
  const tested = (x: Operand, y: Operand) => x.type === "local" && x.value === s.result && y.type === "bool" && !y.value;
  if (!(tested(a, b) || tested(b, a)) || fe.readsOf(s.result) !== 1) return false;
  fe.out.line`if (!${fe.mod.rt(op[0])}(${join(s.args.map((x) => fe.operand(x)))})) ${fe.jump(0)}`;
  return true;
}

/** A synchronous builtin's call through its site: `call2($, site, a, b)`. */
function siteCall(fe: FuncEmitter, site: Code, args: readonly Code[]): Code {
  const mod = fe.mod;
  if (args.length > 3) return _`${mod.rt("callN")}(${fe.state}, ${site}, [${join(args)}])`;
  const helper = mod.rt((["call0", "call1", "call2", "call3"] as const)[args.length]!);
  if (args.length === 0) return _`${helper}(${fe.state}, ${site})`;
  return _`${helper}(${fe.state}, ${site}, ${join(args)})`;
}

/** startswith, endswith, contains: the string method when both operands are strings, the builtin's
 * call (its error) otherwise — `r = typeof a === "string" && typeof b === "string" ? a.startsWith(b)
 * : call2($, startswith, a, b)`; decided here when both are constants. True when written; false when
 * an operand is never a string (a boolean, a number or null constant): the builtin's call then. */
function stringMethodCall(fe: FuncEmitter, s: CallStmt, method: "startsWith" | "endsWith" | "includes"): boolean {
  const [a, b] = s.args as [Operand, Operand];
  if (a.type === "bool" || b.type === "bool" || (a.type === "local" && fe.constants.has(a.value)) || (b.type === "local" && fe.constants.has(b.value))) return false;
  const mod = fe.mod;
  const r = fe.local(s.result);
  if (a.type === "string_index" && b.type === "string_index") {
    fe.out.line`${r} = ${lit(mod.string(a.value)[method](mod.string(b.value)))};`;
    return true;
  }
  const tests: Code[] = [];
  if (a.type === "local") tests.push(_`typeof ${fe.operand(a)} === "string"`);
  if (b.type === "local" && !(a.type === "local" && a.value === b.value)) tests.push(_`typeof ${fe.operand(b)} === "string"`);
  const args = [fe.operand(a), fe.operand(b)];
  const call = siteCall(fe, mod.builtinSite(s.func, s), args);
  fe.out.line`${r} = ${join(tests, _` && `)} ? ${args[0]!}.${new Name(method)}(${args[1]!}) : ${call}; if (${r} === undefined) ${fe.jump(0)}`;
  return true;
}

export const callDynamicStmt: E<"CallDynamicStmt"> = (fe, s) => {
  const mod = fe.mod;
  const r = fe.local(s.result);
  const t = fe.temp(_`${mod.fixed.V} | typeof ${mod.rt("NOT_FOUND")}`);
  const key = _`${mod.rt("pathKey")}([${join(s.path.map((p) => fe.operand(p)))}])`;
  const [input, data] = s.args.map((a) => fe.local(a)) as [Code, Code];
  const call = _`${mod.callDispatch()}(${fe.state}, ${key}, ${input}, ${data})`;
  fe.out.line`${t} = ${dispatchIsAsync(mod) ? _`await ${call}` : call};`;
  fe.out.line`if (${t} === ${mod.rt("NOT_FOUND")}) ${fe.jump(0)}`;
  return fe.out.line`${r} = ${t}; if (${r} === undefined) ${fe.jump(3)}`;
};

export function dispatchIsAsync(mod: ModuleEmitter): boolean {
  for (const name of mod.calls.dynamicTargets) if (mod.calls.asyncFuncs.has(name)) return true;
  return false;
}

/** The body of `function callDynamic($, key, input, data)`: a switch over the paths of the
 * possible targets. */
export function dispatcher(mod: ModuleEmitter, targets: readonly Func[]): { returnType: Code; body: Lines; isAsync: boolean } {
  const isAsync = dispatchIsAsync(mod);
  const $ = mod.fixed.state;
  const body = new Lines(mod.typed, mod.pieces);
  body.open(_`switch (key)`, null);
  for (const f of targets) {
    const call = _`${mod.funcName(f)}(${$}, input, data)`;
    body.line`case ${lit(JSON.stringify(f.path))}: return ${mod.calls.asyncFuncs.has(f.name) ? _`await ${call}` : call};`;
  }
  body.line`default: return ${mod.rt("NOT_FOUND")};`;
  body.close();
  const ret = _`${mod.fixed.V} | typeof ${mod.rt("NOT_FOUND")}`;
  return { returnType: isAsync ? _`Promise<${ret}>` : ret, body, isAsync };
}
