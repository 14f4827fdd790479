// The variables of an expression as the safety analysis counts them: what visit.ts' varsOf
// collects with SAFETY_PARAMS (call operators' names and closures skipped). A walk of its own,
// with the parameters fixed, because the reordering runs it for every expression of every body
// and the generic walk's checks of its parameters were most of its cost. Tests hold the two to
// the same answers (test/unit/compiler/passes/safety.test.ts).
import type { Body, Expr, Term, With } from "../ast/nodes.js";

/** Where the walk adds the vars it finds: a set, or a list that keeps them distinct itself. */
export interface VarSink {
  add(v: string): unknown;
}

/** Adds the vars of an expression (SAFETY_PARAMS) to `into`, in varsOf's order. */
export function safetyVarsOfExpr(e: Expr, into: VarSink): void {
  const ts = e.terms;
  if (Array.isArray(ts)) {
    operator(ts[0]!, into);
    for (let i = 1; i < ts.length; i++) term(ts[i]!, into);
  } else if (ts.type === "some") {
    for (const s of ts.symbols) term(s, into);
  } else if (ts.type === "every") {
    // a closure: only its domain counts
    term(ts.domain, into);
  } else if (ts.type !== "and" && ts.type !== "or" && ts.type !== "not") {
    term(ts as Term, into);
  }
  for (const w of e.with) withVars(w, into);
}

/** Adds the vars of a body's expressions (SAFETY_PARAMS) to `into`. */
export function safetyVarsOfBody(body: Body, into: VarSink): void {
  for (const e of body) safetyVarsOfExpr(e, into);
}

/** A call's operator: only the operands of an operator ref. */
function operator(op: Term, into: VarSink): void {
  if (op.type === "ref") {
    const ts = op.value;
    for (let i = 1; i < ts.length; i++) term(ts[i]!, into);
  } else term(op, into);
}

function withVars(w: With, into: VarSink): void {
  if (w.target.type === "ref") {
    const ts = w.target.value;
    for (let i = 1; i < ts.length; i++) term(ts[i]!, into);
  }
  if (w.value.type === "ref") {
    const ts = w.value.value;
    for (let i = 1; i < ts.length; i++) term(ts[i]!, into);
  } else term(w.value, into);
}

function term(t: Term, into: VarSink): void {
  switch (t.type) {
    case "var":
      into.add(t.value);
      return;
    case "ref":
    case "array":
    case "set":
      for (const x of t.value) term(x, into);
      return;
    case "object":
      for (const [k, v] of t.value) {
        term(k, into);
        term(v, into);
      }
      return;
    case "call": {
      const ts = t.value;
      operator(ts[0]!, into);
      for (let i = 1; i < ts.length; i++) term(ts[i]!, into);
      return;
    }
    default:
      // scalars, and closures (comprehensions, template strings): nothing
      return;
  }
}
