// Builtins of OPA's "rand" category. rand.intn(str, n) is a random integer in [0, |n|) from the
// evaluation's random source; OPA caches it per evaluation under the key "str-|n|", so
// rand.intn("k", 5) and rand.intn("k", -5) agree. The registry caches by arguments too
// (nondeterministic: true); the |n| key is kept here in the evaluation's cache.
import type { Value } from "../value/value.js";
import { intOperand, str } from "./args.js";
import type { EvalContext } from "./context.js";
import type { BuiltinTable } from "./registry.js";

function randIntn(ctx: EvalContext, key: Value, bound: Value): Value {
  const s = str(key, 1);
  let n = intOperand(bound, 2);
  if (n === 0) return 0;
  if (n < 0) n = -n;
  const cacheKey = `rand.intn:${JSON.stringify(s)}-${n}`;
  const cached = ctx.builtinCache.get(cacheKey);
  if (cached !== undefined && "value" in cached && cached.value !== undefined) return cached.value;
  let r: number;
  if (n <= 2 ** 32) r = Math.floor(ctx.random() * n);
  else {
    // Two draws, so that bounds beyond 2^53 still reach every value's neighbourhood.
    const hi = BigInt(Math.floor(ctx.random() * 2 ** 32));
    const lo = BigInt(Math.floor(ctx.random() * 2 ** 32));
    r = Number(((hi << 32n) | lo) % BigInt(n));
  }
  ctx.builtinCache.set(cacheKey, { value: r });
  return r;
}

export const randBuiltins: BuiltinTable = {
  "rand.intn": { fn: randIntn, nondeterministic: true },
};
