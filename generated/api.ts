// GENERATED FILE — do not edit. Regenerate with `npm run compile-policies`.
// Source: policies/api.rego (entrypoint data.api.allow), compiled by regoc.
import { EMPTY_OBJECT, type EntrypointTable, type EvalOptions, EvalState, type MaybeValue, assignOnce, builtinSites, call1, call2, conflictSites, dot, dotData, dotKey, equal, internalError, len, scan } from "regoc";
/* a value, or undefined */
type V = MaybeValue;
/* input read by api */
export type ApiInput = {
  "action"?: unknown;
  "method"?: unknown;
  "path"?: unknown;
  "resource"?: unknown;
  "time"?: unknown;
  "user"?: {
    "authenticated"?: unknown;
    "id"?: unknown;
    "role"?: unknown;
    [key: string]: unknown;
  };
  [key: string]: unknown;
};
/* data read by api */
export type ApiData = {
  "permissions"?: unknown;
  "rate_limits"?: unknown;
  [key: string]: unknown;
};
/* builtin call sites, named after their builtins (site i: sites[4i..] = name, file, row, col), resolved at load */
const C = builtinSites("{\"names\":[\"to_number\",\"gte\",\"lte\",\"gt\"],\"files\":[\"policies/api.rego\"],\"sites\":[0,0,68,10,1,0,69,2,2,0,70,2,3,0,63,20]}"),
  toNumber = C[0]!,
  gte = C[1]!,
  lte = C[2]!,
  gt = C[3]!;
/* conflict sites (K, i) (site i: sites[4i..] = kind, file, row, col), read on a conflict */
const K = conflictSites("{\"names\":[\"rule\"],\"files\":[\"policies/api.rego\"],\"sites\":[0,0,17,1,0,0,24,1,0,0,32,1,0,0,39,1,0,0,47,1,0,0,14,9,0,0,67,1,0,0,54,1,0,0,61,1,0,0,63,1]}");

/* Entrypoint api/allow */
export function apiAllow(input: ApiInput | undefined, data: ApiData, options?: EvalOptions): boolean {
  const $ = new EvalState(options);
  let l2: V, result: V, l4: V;
  let inputValue: V = input as unknown as V, dataValue: V = (data ?? EMPTY_OBJECT) as unknown as V;
  b0: {
    l2 = g0DataApiAllow($, inputValue, dataValue); if (l2 === undefined) break b0;
    result = l2;
    l4 = result;
    return l4 as boolean;
  }
  throw internalError("entrypoint api/allow produced no value");
}

/* g0.data.api.allow */
function g0DataApiAllow($: EvalState, input: V, data: V): V {
  let allow: V, l3: V, l4: V, l5: V, l6: V, l7: V, l8: V, l9: V, l10: V, l11: V, l12: V;
  // policies/api.rego:17
  b0: {
    l3 = undefined;
    l4 = dotKey(input, "method"); if (l4 === undefined) break b0;
    if ((l4 as V) !== "GET") break b0;
    l5 = dotKey(input, "path"); if (l5 === undefined) break b0;
    if (!Array.isArray(l5)) break b0;
    l7 = len(l5);
    l6 = 1;
    if (!equal(l7, l6)) break b0;
    l8 = 0;
    l8 = 0;
    l9 = dot(l5, l8); if (l9 === undefined) break b0;
    if ((l9 as V) !== "users") break b0;
    l10 = dotKey(input, "user"); if (l10 === undefined) break b0;
    l11 = dotKey(l10, "authenticated"); if (l11 === undefined) break b0;
    if ((l11 as V) !== true) break b0;
    l3 = assignOnce(l3, true, K, 0);
  }
  if (l3 !== undefined) { allow = assignOnce(allow, l3, K, 0); }
  // policies/api.rego:24
  b2: {
    l3 = undefined;
    l4 = dotKey(input, "method"); if (l4 === undefined) break b2;
    if ((l4 as V) !== "GET") break b2;
    l5 = dotKey(input, "path"); if (l5 === undefined) break b2;
    if (!Array.isArray(l5)) break b2;
    l7 = len(l5);
    l6 = 2;
    if (!equal(l7, l6)) break b2;
    l8 = 0;
    l8 = 0;
    l9 = dot(l5, l8); if (l9 === undefined) break b2;
    if ((l9 as V) !== "users") break b2;
    l8 = 1;
    l9 = dot(l5, l8); if (l9 === undefined) break b2;
    l10 = l9;
    l11 = dotKey(input, "user"); if (l11 === undefined) break b2;
    l12 = dotKey(l11, "id"); if (l12 === undefined) break b2;
    if (!equal(l12, l10)) break b2;
    l3 = assignOnce(l3, true, K, 1);
  }
  if (l3 !== undefined) { allow = assignOnce(allow, l3, K, 1); }
  // policies/api.rego:32
  b4: {
    l3 = undefined;
    l4 = dotKey(input, "method"); if (l4 === undefined) break b4;
    if ((l4 as V) !== "GET") break b4;
    l5 = dotKey(input, "path"); if (l5 === undefined) break b4;
    if (!Array.isArray(l5)) break b4;
    l7 = len(l5);
    l6 = 2;
    if (!equal(l7, l6)) break b4;
    l8 = 0;
    l8 = 0;
    l9 = dot(l5, l8); if (l9 === undefined) break b4;
    if ((l9 as V) !== "users") break b4;
    l8 = 1;
    l9 = dot(l5, l8); if (l9 === undefined) break b4;
    l10 = l9;
    l11 = dotKey(input, "user"); if (l11 === undefined) break b4;
    l12 = dotKey(l11, "role"); if (l12 === undefined) break b4;
    if ((l12 as V) !== "admin") break b4;
    l3 = assignOnce(l3, true, K, 2);
  }
  if (l3 !== undefined) { allow = assignOnce(allow, l3, K, 2); }
  // policies/api.rego:39
  b6: {
    l3 = undefined;
    l4 = dotKey(input, "method"); if (l4 === undefined) break b6;
    if ((l4 as V) !== "POST") break b6;
    l5 = dotKey(input, "path"); if (l5 === undefined) break b6;
    if (!Array.isArray(l5)) break b6;
    l7 = len(l5);
    l6 = 1;
    if (!equal(l7, l6)) break b6;
    l8 = 0;
    l8 = 0;
    l9 = dot(l5, l8); if (l9 === undefined) break b6;
    if ((l9 as V) !== "orders") break b6;
    l10 = dotKey(input, "user"); if (l10 === undefined) break b6;
    l11 = dotKey(l10, "authenticated"); if (l11 === undefined) break b6;
    if ((l11 as V) !== true) break b6;
    l12 = g0DataApiBusinessHours($, input, data); if (l12 === undefined) break b6;
    if ((l12 as V) === false) break b6;
    l3 = assignOnce(l3, true, K, 3);
  }
  if (l3 !== undefined) { allow = assignOnce(allow, l3, K, 3); }
  // policies/api.rego:47
  b8: {
    l3 = undefined;
    l4 = g0DataApiCheckPermission($, input, data); if (l4 === undefined) break b8;
    if ((l4 as V) === false) break b8;
    l5 = g0DataApiRateLimitOk($, input, data); if (l5 === undefined) break b8;
    if ((l5 as V) === false) break b8;
    l6 = g0DataApiBusinessHours($, input, data); if (l6 === undefined) break b8;
    if ((l6 as V) === false) break b8;
    l3 = assignOnce(l3, true, K, 4);
  }
  if (l3 !== undefined) { allow = assignOnce(allow, l3, K, 4); }
  // policies/api.rego:14
  if (allow === undefined) { allow = assignOnce(allow, false, K, 5); }
  return allow;
}

/* g0.data.api.business_hours (memoised) */
function g0DataApiBusinessHours($: EvalState, input: V, _data: V): V {
  const m0 = $.memo;
  if (m0 !== undefined && m0.has(0)) return m0.get(0);
  let business_hours: V, l3: V, l4: V, l5: V, l6: V, l7: V, hour: V, l9: V, l10: V, l11: V, l12: V;
  // policies/api.rego:67
  b0: {
    l3 = undefined;
    l4 = dotKey(input, "time"); if (l4 === undefined) break b0;
    l5 = l4;
    l6 = call1($, toNumber, l5); if (l6 === undefined) break b0;
    l7 = l6;
    hour = l7;
    l9 = 9;
    l10 = call2($, gte, hour, l9); if (l10 === undefined) break b0;
    if ((l10 as V) === false) break b0;
    l11 = 18;
    l12 = call2($, lte, hour, l11); if (l12 === undefined) break b0;
    if ((l12 as V) === false) break b0;
    l3 = assignOnce(l3, true, K, 6);
  }
  if (l3 !== undefined) { business_hours = assignOnce(business_hours, l3, K, 6); }
  return $.memoize(0, business_hours);
}

/* g0.data.api.check_permission */
function g0DataApiCheckPermission(_$: EvalState, input: V, data: V): V {
  let check_permission: V, l3: V, l4: V, l5: V, l6: V, l7: V, l8: V, l10: V, grant: V, l15: V, l16: V, l17: V, l18: V;
  // policies/api.rego:54
  b0: {
    l3 = undefined;
    l4 = dotKey(input, "user"); if (l4 === undefined) break b0;
    l5 = dotKey(l4, "role"); if (l5 === undefined) break b0;
    l6 = l5;
    l7 = dotKey(data, "permissions"); if (l7 === undefined) break b0;
    l8 = dotData(l7, l6); if (l8 === undefined) break b0;
    const i0 = scan(l8);
    s0: while (i0.next()) {
      l10 = i0.value;
      b1: {
        break b1;
      }
      grant = l10;
      l15 = dotKey(grant, "resource"); if (l15 === undefined) continue s0;
      l16 = dotKey(input, "resource"); if (l16 === undefined) continue s0;
      if (!equal(l15, l16)) continue s0;
      l17 = dotKey(grant, "action"); if (l17 === undefined) continue s0;
      l18 = dotKey(input, "action"); if (l18 === undefined) continue s0;
      if (!equal(l17, l18)) continue s0;
      l3 = assignOnce(l3, true, K, 7);
    }
  }
  if (l3 !== undefined) { check_permission = assignOnce(check_permission, l3, K, 7); }
  return check_permission;
}

/* g0.data.api.rate_limit_ok */
function g0DataApiRateLimitOk($: EvalState, input: V, data: V): V {
  let rate_limit_ok: V, l3: V, l4: V;
  // policies/api.rego:61
  b0: {
    l3 = undefined;
    n0: {
      l4 = g0DataApiOverRateLimit($, input, data); if (l4 === undefined) break n0;
      if ((l4 as V) === false) break n0;
      break b0;
    }
    l3 = assignOnce(l3, true, K, 8);
  }
  if (l3 !== undefined) { rate_limit_ok = assignOnce(rate_limit_ok, l3, K, 8); }
  return rate_limit_ok;
}

/* g0.data.api.over_rate_limit */
function g0DataApiOverRateLimit($: EvalState, input: V, data: V): V {
  let over_rate_limit: V, l3: V, l4: V, l5: V, l6: V, l7: V, l8: V, l11: V, l12: V, l13: V, l14: V;
  // policies/api.rego:63
  b0: {
    l3 = undefined;
    l4 = dotKey(input, "user"); if (l4 === undefined) break b0;
    l5 = dotKey(l4, "id"); if (l5 === undefined) break b0;
    l6 = l5;
    l7 = dotKey(data, "rate_limits"); if (l7 === undefined) break b0;
    l8 = dotData(l7, l6); if (l8 === undefined) break b0;
    b1: {
      b2: {
        l11 = dotKey(l8, "count"); if (l11 === undefined) break b2;
        break b1;
      }
      break b0;
    }
    l12 = l11;
    l13 = 100;
    l14 = call2($, gt, l12, l13); if (l14 === undefined) break b0;
    if ((l14 as V) === false) break b0;
    l3 = assignOnce(l3, true, K, 9);
  }
  if (l3 !== undefined) { over_rate_limit = assignOnce(over_rate_limit, l3, K, 9); }
  return over_rate_limit;
}

/* entrypoint name -> function */
export const entrypoints: EntrypointTable = {
  ["api/allow"]: { kind: "value", binding: "result", async: false, fn: apiAllow },
};
