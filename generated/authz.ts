// GENERATED FILE — do not edit. Regenerate with `npm run compile-policies`.
// Source: policies/authz.rego (entrypoint data.authz.allow), compiled by regoc.
import { EMPTY_OBJECT, type EntrypointTable, type EvalOptions, EvalState, type MaybeValue, assignOnce, conflictSites, dotData, dotKey, equal, internalError, scan } from "regoc";
/* a value, or undefined */
type V = MaybeValue;
/* input read by authz */
export type AuthzInput = {
  "action"?: unknown;
  "resource"?: {
    "owner_id"?: unknown;
    "type"?: unknown;
    [key: string]: unknown;
  };
  "user"?: {
    "id"?: unknown;
    "role"?: unknown;
    [key: string]: unknown;
  };
  [key: string]: unknown;
};
/* data read by authz */
export type AuthzData = {
  "permissions"?: unknown;
  [key: string]: unknown;
};
/* conflict sites (K, i) (site i: sites[4i..] = kind, file, row, col), read on a conflict */
const K = conflictSites("{\"names\":[\"rule\",\"function\"],\"files\":[\"policies/authz.rego\"],\"sites\":[0,0,14,1,0,0,17,1,0,0,21,1,0,0,11,9,1,0,28,1]}");

/* Entrypoint authz/allow */
export function authzAllow(input: AuthzInput | undefined, data: AuthzData, options?: EvalOptions): boolean {
  const $ = new EvalState(options);
  let l2: V, result: V, l4: V;
  let inputValue: V = input as unknown as V, dataValue: V = (data ?? EMPTY_OBJECT) as unknown as V;
  b0: {
    l2 = g0DataAuthzAllow($, inputValue, dataValue); if (l2 === undefined) break b0;
    result = l2;
    l4 = result;
    return l4 as boolean;
  }
  throw internalError("entrypoint authz/allow produced no value");
}

/* g0.data.authz.allow */
function g0DataAuthzAllow($: EvalState, input: V, data: V): V {
  let allow: V, l3: V, l4: V, l5: V, l6: V, l7: V, l8: V, l10: V, grant: V, l15: V, l16: V, l17: V, l18: V, l19: V;
  // policies/authz.rego:14
  b0: {
    l3 = undefined;
    l4 = g0DataAuthzCheckRole($, input, data, "admin"); if (l4 === undefined) break b0;
    if ((l4 as V) === false) break b0;
    l3 = assignOnce(l3, true, K, 0);
  }
  if (l3 !== undefined) { allow = assignOnce(allow, l3, K, 0); }
  // policies/authz.rego:17
  b2: {
    l3 = undefined;
    l4 = dotKey(input, "user"); if (l4 === undefined) break b2;
    l5 = dotKey(l4, "id"); if (l5 === undefined) break b2;
    l6 = dotKey(input, "resource"); if (l6 === undefined) break b2;
    l7 = dotKey(l6, "owner_id"); if (l7 === undefined) break b2;
    if (!equal(l5, l7)) break b2;
    l3 = assignOnce(l3, true, K, 1);
  }
  if (l3 !== undefined) { allow = assignOnce(allow, l3, K, 1); }
  // policies/authz.rego:21
  b4: {
    l3 = undefined;
    l4 = dotKey(input, "user"); if (l4 === undefined) break b4;
    l5 = dotKey(l4, "id"); if (l5 === undefined) break b4;
    l6 = l5;
    l7 = dotKey(data, "permissions"); if (l7 === undefined) break b4;
    l8 = dotData(l7, l6); if (l8 === undefined) break b4;
    const i0 = scan(l8);
    s0: while (i0.next()) {
      l10 = i0.value;
      b5: {
        break b5;
      }
      grant = l10;
      l15 = dotKey(grant, "action"); if (l15 === undefined) continue s0;
      l16 = dotKey(input, "action"); if (l16 === undefined) continue s0;
      if (!equal(l15, l16)) continue s0;
      l17 = dotKey(grant, "resource"); if (l17 === undefined) continue s0;
      l18 = dotKey(input, "resource"); if (l18 === undefined) continue s0;
      l19 = dotKey(l18, "type"); if (l19 === undefined) continue s0;
      if (!equal(l17, l19)) continue s0;
      l3 = assignOnce(l3, true, K, 2);
    }
  }
  if (l3 !== undefined) { allow = assignOnce(allow, l3, K, 2); }
  // policies/authz.rego:11
  if (allow === undefined) { allow = assignOnce(allow, false, K, 3); }
  return allow;
}

/* g0.data.authz.check_role */
function g0DataAuthzCheckRole(_$: EvalState, input: V, _data: V, role: V): V {
  let check_role: V, l4: V, role2: V, l6: V, l7: V;
  // policies/authz.rego:28
  b0: {
    l4 = undefined;
    role2 = role;
    l6 = dotKey(input, "user"); if (l6 === undefined) break b0;
    l7 = dotKey(l6, "role"); if (l7 === undefined) break b0;
    if (!equal(l7, role2)) break b0;
    l4 = assignOnce(l4, true, K, 4);
  }
  if (l4 !== undefined) { check_role = assignOnce(check_role, l4, K, 4); }
  return check_role;
}

/* entrypoint name -> function */
export const entrypoints: EntrypointTable = {
  ["authz/allow"]: { kind: "value", binding: "result", async: false, fn: authzAllow },
};
