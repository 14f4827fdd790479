// The two ways a compliance case reaches the code generator: OPA's own plan (tests the back
// half), or the case's Rego source through our frontend (tests the front half).
import type { ComplianceCase } from "./cases.js";
import type { Evaluable, Frontend } from "./run.js";
import { invalid } from "../ir/decode.js";
import type { Value } from "../../runtime/value/value.js";
import { termTextToValue } from "./inputTerm.js";

export const planFrontend: Frontend = {
  name: "plan",
  async prepare(c: ComplianceCase): Promise<Evaluable> {
    if (c.plan === undefined) throw invalid("", "case has no plan");
    const { compilePlan } = await import("../index.js");
    const entrypoint = c.entrypoints?.[0];
    return compilePlan(c.plan, entrypoint === undefined ? {} : { entrypoint });
  },
  parseInputTerm(text: string): Value {
    return termTextToValue(text);
  },
};

/** The case's Rego source through our frontend (compiler/compile.ts): modules + query → plan. */
export const regoFrontend: Frontend = {
  name: "rego",
  async prepare(c: ComplianceCase): Promise<Evaluable> {
    if (c.query === undefined) throw invalid("", "case has no query");
    const { compileRego } = await import("../compile.js");
    const modules: Record<string, string> = {};
    (c.modules ?? []).forEach((m, i) => (modules[`module-${i}.rego`] = m));
    return compileRego({ modules, query: c.query, queryName: "eval" });
  },
  parseInputTerm(text: string): Value {
    return termTextToValue(text);
  },
};
