// GENERATED FILE — do not edit. Regenerate with `npm run compile-policies`.
// Source: policies/api.rego (entrypoint data.api.allow), compiled by regoc.
import { EMPTY_OBJECT, type EntrypointTable, type EvalOptions, EvalState, type MaybeValue, NOT_FOUND, OBJECT_PROTOTYPE, type PlainObject, builtinSites, call1, dot, dotData, dotKey, equal, getPrototypeOf, gt, gte, internalError, len, lte, scanValue, scanView, tickTo } from "regoc/eval";
import { castsBuiltins } from "regoc/builtins/casts";
/* a value, or undefined */
type V = MaybeValue;
/* a collection the policy scans or indexes: an array of T, or an object whose values are T */
export type Collection<T> = T[] | { [key: string]: T };
/* input read by api, typed from how the policy uses it; a JSON schema would type what it leaves unknown: action, resource */
export type ApiInput = {
  "action"?: unknown;
  "method"?: string;
  "path"?: string[];
  "resource"?: unknown;
  "time"?: null | boolean | number | string;
  "user"?: {
    "authenticated"?: boolean;
    "id"?: number | string;
    "role"?: string;
  };
};
/* data read by api, typed from how the policy uses it; a JSON schema would type what it leaves unknown: permissions[_][_].action, permissions[_][_].resource */
export type ApiData = {
  "permissions"?: Collection<Collection<{ "action"?: unknown; "resource"?: unknown }>>;
  "rate_limits"?: Collection<{ "count"?: number }>;
};
/* builtin call sites, named after their builtins (site i: sites[4i..] = name, file, row, col), resolved at load */
const C = builtinSites("{\"names\":[\"to_number\"],\"files\":[\"policies/api.rego\"],\"sites\":[0,0,72,10]}", castsBuiltins),
  toNumber = C[0]!;
/* field readers, one per key read (of input, of anything else): each load keeps an inline cache of its own */
const inputMethod = (o: V): V => (o !== undefined && o !== null && (o as PlainObject)["method"] !== undefined && (getPrototypeOf(o) === OBJECT_PROTOTYPE ? !("method" in OBJECT_PROTOTYPE) : getPrototypeOf(o) === null) ? (o as PlainObject)["method"] : dotKey(o, "method")),
  inputPath = (o: V): V => (o !== undefined && o !== null && (o as PlainObject)["path"] !== undefined && (getPrototypeOf(o) === OBJECT_PROTOTYPE ? !("path" in OBJECT_PROTOTYPE) : getPrototypeOf(o) === null) ? (o as PlainObject)["path"] : dotKey(o, "path")),
  inputUser = (o: V): V => (o !== undefined && o !== null && (o as PlainObject)["user"] !== undefined && (getPrototypeOf(o) === OBJECT_PROTOTYPE ? !("user" in OBJECT_PROTOTYPE) : getPrototypeOf(o) === null) ? (o as PlainObject)["user"] : dotKey(o, "user")),
  dotAuthenticated = (o: V): V => (o !== undefined && o !== null && (o as PlainObject)["authenticated"] !== undefined && (getPrototypeOf(o) === OBJECT_PROTOTYPE ? !("authenticated" in OBJECT_PROTOTYPE) : getPrototypeOf(o) === null) ? (o as PlainObject)["authenticated"] : dotKey(o, "authenticated")),
  dotId = (o: V): V => (o !== undefined && o !== null && (o as PlainObject)["id"] !== undefined && (getPrototypeOf(o) === OBJECT_PROTOTYPE ? !("id" in OBJECT_PROTOTYPE) : getPrototypeOf(o) === null) ? (o as PlainObject)["id"] : dotKey(o, "id")),
  dotRole = (o: V): V => (o !== undefined && o !== null && (o as PlainObject)["role"] !== undefined && (getPrototypeOf(o) === OBJECT_PROTOTYPE ? !("role" in OBJECT_PROTOTYPE) : getPrototypeOf(o) === null) ? (o as PlainObject)["role"] : dotKey(o, "role")),
  inputTime = (o: V): V => (o !== undefined && o !== null && (o as PlainObject)["time"] !== undefined && (getPrototypeOf(o) === OBJECT_PROTOTYPE ? !("time" in OBJECT_PROTOTYPE) : getPrototypeOf(o) === null) ? (o as PlainObject)["time"] : dotKey(o, "time")),
  dotPermissions = (o: V): V => (o !== undefined && o !== null && (o as PlainObject)["permissions"] !== undefined && (getPrototypeOf(o) === OBJECT_PROTOTYPE ? !("permissions" in OBJECT_PROTOTYPE) : getPrototypeOf(o) === null) ? (o as PlainObject)["permissions"] : dotKey(o, "permissions")),
  inputResource = (o: V): V => (o !== undefined && o !== null && (o as PlainObject)["resource"] !== undefined && (getPrototypeOf(o) === OBJECT_PROTOTYPE ? !("resource" in OBJECT_PROTOTYPE) : getPrototypeOf(o) === null) ? (o as PlainObject)["resource"] : dotKey(o, "resource")),
  inputAction = (o: V): V => (o !== undefined && o !== null && (o as PlainObject)["action"] !== undefined && (getPrototypeOf(o) === OBJECT_PROTOTYPE ? !("action" in OBJECT_PROTOTYPE) : getPrototypeOf(o) === null) ? (o as PlainObject)["action"] : dotKey(o, "action")),
  dotResource = (o: V): V => (o !== undefined && o !== null && (o as PlainObject)["resource"] !== undefined && (getPrototypeOf(o) === OBJECT_PROTOTYPE ? !("resource" in OBJECT_PROTOTYPE) : getPrototypeOf(o) === null) ? (o as PlainObject)["resource"] : dotKey(o, "resource")),
  dotAction = (o: V): V => (o !== undefined && o !== null && (o as PlainObject)["action"] !== undefined && (getPrototypeOf(o) === OBJECT_PROTOTYPE ? !("action" in OBJECT_PROTOTYPE) : getPrototypeOf(o) === null) ? (o as PlainObject)["action"] : dotKey(o, "action")),
  dotRateLimits = (o: V): V => (o !== undefined && o !== null && (o as PlainObject)["rate_limits"] !== undefined && (getPrototypeOf(o) === OBJECT_PROTOTYPE ? !("rate_limits" in OBJECT_PROTOTYPE) : getPrototypeOf(o) === null) ? (o as PlainObject)["rate_limits"] : dotKey(o, "rate_limits")),
  dotCount = (o: V): V => (o !== undefined && o !== null && (o as PlainObject)["count"] !== undefined && (getPrototypeOf(o) === OBJECT_PROTOTYPE ? !("count" in OBJECT_PROTOTYPE) : getPrototypeOf(o) === null) ? (o as PlainObject)["count"] : dotKey(o, "count"));

/* Entrypoint api/allow */
export function apiAllow(input: ApiInput | undefined, data: ApiData, options?: EvalOptions): boolean {
  const $ = EvalState.take(options);
  let inputValue: V = input as unknown as V, dataValue: V = (data ?? EMPTY_OBJECT) as unknown as V;
  const result = g0DataApiAllow($, inputValue, dataValue);
  if (result === undefined) throw internalError("entrypoint api/allow produced no value");
  return $.done(result) as boolean;
}

/* g0.data.api.allow */
function g0DataApiAllow($: EvalState, input: V, data: V): V {
  let allow: V, l4: V, l5: V, l6: V, l7: V, l9: V, l10: V, l11: V, l12: V;
  // policies/api.rego:17
  b0: {
    l4 = inputMethod(input); if (l4 === undefined) break b0;
    if ((l4 as V) !== "GET") break b0;
    l5 = inputPath(input); if (l5 === undefined) break b0;
    if (!Array.isArray(l5)) break b0;
    l7 = len(l5);
    if ((l7 as V) !== 1) break b0;
    l9 = dot(l5, 0); if (l9 === undefined) break b0;
    if ((l9 as V) !== "users") break b0;
    l10 = inputUser(input); if (l10 === undefined) break b0;
    l11 = dotAuthenticated(l10); if (l11 === undefined) break b0;
    if ((l11 as V) !== true) break b0;
    allow = true;
  }
  // policies/api.rego:24
  b1: if (allow === undefined) {
    if (l4 === undefined) break b1;
    if ((l4 as V) !== "GET") break b1;
    l5 = inputPath(input); if (l5 === undefined) break b1;
    if (!Array.isArray(l5)) break b1;
    l7 = len(l5);
    if ((l7 as V) !== 2) break b1;
    l9 = dot(l5, 0); if (l9 === undefined) break b1;
    if ((l9 as V) !== "users") break b1;
    l9 = dot(l5, 1); if (l9 === undefined) break b1;
    l11 = inputUser(input); if (l11 === undefined) break b1;
    l12 = dotId(l11); if (l12 === undefined) break b1;
    if (typeof l12 === "string" ? l12 !== (l9 as V) : !equal(l12, l9)) break b1;
    allow = true;
  }
  // policies/api.rego:32
  b2: if (allow === undefined) {
    if (l4 === undefined) break b2;
    if ((l4 as V) !== "GET") break b2;
    l5 = inputPath(input); if (l5 === undefined) break b2;
    if (!Array.isArray(l5)) break b2;
    l7 = len(l5);
    if ((l7 as V) !== 2) break b2;
    l9 = dot(l5, 0); if (l9 === undefined) break b2;
    if ((l9 as V) !== "users") break b2;
    l9 = dot(l5, 1); if (l9 === undefined) break b2;
    l11 = inputUser(input); if (l11 === undefined) break b2;
    l12 = dotRole(l11); if (l12 === undefined) break b2;
    if ((l12 as V) !== "admin") break b2;
    allow = true;
  }
  // policies/api.rego:39
  b3: if (allow === undefined) {
    if (l4 === undefined) break b3;
    if ((l4 as V) !== "POST") break b3;
    l5 = inputPath(input); if (l5 === undefined) break b3;
    if (!Array.isArray(l5)) break b3;
    l7 = len(l5);
    if ((l7 as V) !== 1) break b3;
    l9 = dot(l5, 0); if (l9 === undefined) break b3;
    if ((l9 as V) !== "orders") break b3;
    l10 = inputUser(input); if (l10 === undefined) break b3;
    l11 = dotAuthenticated(l10); if (l11 === undefined) break b3;
    if ((l11 as V) !== true) break b3;
    l12 = g0DataApiBusinessHours($, input, data); if (l12 === undefined) break b3;
    if ((l12 as V) === false) break b3;
    allow = true;
  }
  // policies/api.rego:47
  b4: if (allow === undefined) {
    l4 = g0DataApiCheckPermission($, input, data); if (l4 === undefined) break b4;
    if ((l4 as V) === false) break b4;
    l5 = g0DataApiRateLimitOk($, input, data); if (l5 === undefined) break b4;
    if ((l5 as V) === false) break b4;
    l6 = g0DataApiBusinessHours($, input, data); if (l6 === undefined) break b4;
    if ((l6 as V) === false) break b4;
    allow = true;
  }
  // policies/api.rego:14
  if (allow === undefined) { allow = false; }
  return allow;
}

/* g0.data.api.business_hours (memoised) */
function g0DataApiBusinessHours($: EvalState, input: V, _data: V): V {
  const m0 = $.recall(0);
  if (m0 !== NOT_FOUND) return m0;
  let business_hours: V, l4: V, hour: V;
  // policies/api.rego:71
  b0: {
    l4 = inputTime(input); if (l4 === undefined) break b0;
    hour = call1($, toNumber, l4); if (hour === undefined) break b0;
    if (!gte(hour, 9)) break b0;
    if (!lte(hour, 18)) break b0;
    business_hours = true;
  }
  return $.memoize(0, business_hours);
}

/* g0.data.api.check_permission */
function g0DataApiCheckPermission($: EvalState, input: V, data: V): V {
  let check_permission: V, l4: V, l5: V, l7: V, l8: V, grant: V, l15: V, l16: V, l17: V, l18: V;
  // policies/api.rego:54
  b0: {
    l4 = inputUser(input); if (l4 === undefined) break b0;
    l5 = dotRole(l4); if (l5 === undefined) break b0;
    l7 = dotPermissions(data); if (l7 === undefined) break b0;
    l8 = dotData(l7, l5); if (l8 === undefined) break b0;
    l16 = inputResource(input); if (l16 === undefined) break b0;
    l18 = inputAction(input); if (l18 === undefined) break b0;
    const x0 = l8, v0 = scanView(x0), ar0 = (x0 as V) === v0;
    s0: for (let i0 = 0; i0 < v0.length; ) {
      st0: for (const e0 = tickTo($, i0, v0.length); i0 < e0; i0++) {
        grant = ar0 ? v0[i0] as V : scanValue(x0, v0, i0);
        l15 = dotResource(grant); if (l15 === undefined) continue st0;
        if (typeof l15 === "string" ? l15 !== (l16 as V) : !equal(l15, l16)) continue st0;
        l17 = dotAction(grant); if (l17 === undefined) continue st0;
        if (typeof l17 === "string" ? l17 !== (l18 as V) : !equal(l17, l18)) continue st0;
        check_permission = true;
        break b0;
      }
    }
  }
  return check_permission;
}

/* g0.data.api.rate_limit_ok */
function g0DataApiRateLimitOk($: EvalState, input: V, data: V): V {
  let rate_limit_ok: V, l4: V;
  // policies/api.rego:65
  b0: {
    n0: {
      l4 = g0DataApiOverRateLimit($, input, data); if (l4 === undefined) break n0;
      if ((l4 as V) === false) break n0;
      break b0;
    }
    rate_limit_ok = true;
  }
  return rate_limit_ok;
}

/* g0.data.api.over_rate_limit */
function g0DataApiOverRateLimit(_$: EvalState, input: V, data: V): V {
  let over_rate_limit: V, l4: V, l5: V, l7: V, l8: V, l11: V;
  // policies/api.rego:67
  b0: {
    l4 = inputUser(input); if (l4 === undefined) break b0;
    l5 = dotId(l4); if (l5 === undefined) break b0;
    l7 = dotRateLimits(data); if (l7 === undefined) break b0;
    l8 = dotData(l7, l5); if (l8 === undefined) break b0;
    b1: {
      b2: {
        l11 = dotCount(l8); if (l11 === undefined) break b2;
        break b1;
      }
      break b0;
    }
    if (!gt(l11, 100)) break b0;
    over_rate_limit = true;
  }
  return over_rate_limit;
}

/* entrypoint name -> function */
export const entrypoints: EntrypointTable = {
  ["api/allow"]: { kind: "value", binding: "result", async: false, fn: apiAllow },
};
