// `--builtins <module>` and `--capabilities <file>`, shared by `regoc test`, `eval` and `check`
// (compiler/builtins/custom.ts does the work).
import { prepareBuiltins } from "../builtins/custom.js";
import type { Capabilities } from "../builtins/decls.js";

export const BUILTINS_OPTIONS = {
  builtins: { type: "string" },
  capabilities: { type: "string" },
} as const;

export const BUILTINS_USAGE =
  "  --builtins      an ES module (.js, .mjs) exporting `declarations` (OPA capabilities entries) and `implementations` ({ name: { fn } }) of builtins the policies call\n" +
  "  --capabilities  OPA's capabilities JSON: the only builtins the policies may call (declarations only; a call to one regoc does not implement is an eval_internal_error)";

/** Runs `f` with the capabilities the flags give (undefined: OPA's), their builtins registered for the run. */
export async function withRunBuiltins<T>(values: { builtins?: string | undefined; capabilities?: string | undefined }, f: (capabilities: Capabilities | undefined) => Promise<T>): Promise<T> {
  const run = await prepareBuiltins({ module: values.builtins, capabilities: values.capabilities });
  try {
    return await f(run.capabilities);
  } finally {
    run.unregister();
  }
}
