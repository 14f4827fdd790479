// GENERATED FILE — do not edit. Regenerate with `npm run compile-policies`.
// Source: policies/authz.rego (entrypoint data.authz.allow), compiled by regoc.
import { EMPTY_OBJECT, type EntrypointTable, type EvalOptions, EvalState, type MaybeValue, OBJECT_PROTOTYPE, type PlainObject, dotData, dotKey, equal, getPrototypeOf, internalError, scanValue, scanView, tickTo } from "regoc/eval";
/* a value, or undefined */
type V = MaybeValue;
/* a collection the policy scans or indexes: an array of T, or an object whose values are T */
export type Collection<T> = T[] | { [key: string]: T };
/* input read by authz, typed from how the policy uses it; a JSON schema would type what it leaves unknown: action, resource.owner_id, resource.type */
export type AuthzInput = {
  "action"?: unknown;
  "resource"?: { "owner_id"?: unknown; "type"?: unknown };
  "user"?: { "id"?: number | string; "role"?: string };
};
/* data read by authz, typed from how the policy uses it; a JSON schema would type what it leaves unknown: permissions[_][_].action, permissions[_][_].resource */
export type AuthzData = {
  "permissions"?: Collection<Collection<{ "action"?: unknown; "resource"?: unknown }>>;
};
/* field readers, one per key read (of input, of anything else): each load keeps an inline cache of its own */
const inputUser = (o: V): V => (o !== undefined && o !== null && (o as PlainObject)["user"] !== undefined && (getPrototypeOf(o) === OBJECT_PROTOTYPE ? !("user" in OBJECT_PROTOTYPE) : getPrototypeOf(o) === null) ? (o as PlainObject)["user"] : dotKey(o, "user")),
  dotRole = (o: V): V => (o !== undefined && o !== null && (o as PlainObject)["role"] !== undefined && (getPrototypeOf(o) === OBJECT_PROTOTYPE ? !("role" in OBJECT_PROTOTYPE) : getPrototypeOf(o) === null) ? (o as PlainObject)["role"] : dotKey(o, "role")),
  dotId = (o: V): V => (o !== undefined && o !== null && (o as PlainObject)["id"] !== undefined && (getPrototypeOf(o) === OBJECT_PROTOTYPE ? !("id" in OBJECT_PROTOTYPE) : getPrototypeOf(o) === null) ? (o as PlainObject)["id"] : dotKey(o, "id")),
  inputResource = (o: V): V => (o !== undefined && o !== null && (o as PlainObject)["resource"] !== undefined && (getPrototypeOf(o) === OBJECT_PROTOTYPE ? !("resource" in OBJECT_PROTOTYPE) : getPrototypeOf(o) === null) ? (o as PlainObject)["resource"] : dotKey(o, "resource")),
  dotOwnerId = (o: V): V => (o !== undefined && o !== null && (o as PlainObject)["owner_id"] !== undefined && (getPrototypeOf(o) === OBJECT_PROTOTYPE ? !("owner_id" in OBJECT_PROTOTYPE) : getPrototypeOf(o) === null) ? (o as PlainObject)["owner_id"] : dotKey(o, "owner_id")),
  dotPermissions = (o: V): V => (o !== undefined && o !== null && (o as PlainObject)["permissions"] !== undefined && (getPrototypeOf(o) === OBJECT_PROTOTYPE ? !("permissions" in OBJECT_PROTOTYPE) : getPrototypeOf(o) === null) ? (o as PlainObject)["permissions"] : dotKey(o, "permissions")),
  inputAction = (o: V): V => (o !== undefined && o !== null && (o as PlainObject)["action"] !== undefined && (getPrototypeOf(o) === OBJECT_PROTOTYPE ? !("action" in OBJECT_PROTOTYPE) : getPrototypeOf(o) === null) ? (o as PlainObject)["action"] : dotKey(o, "action")),
  dotType = (o: V): V => (o !== undefined && o !== null && (o as PlainObject)["type"] !== undefined && (getPrototypeOf(o) === OBJECT_PROTOTYPE ? !("type" in OBJECT_PROTOTYPE) : getPrototypeOf(o) === null) ? (o as PlainObject)["type"] : dotKey(o, "type"));

/* Entrypoint authz/allow */
export function authzAllow(input: AuthzInput | undefined, data: AuthzData, options?: EvalOptions): boolean {
  const $ = EvalState.timed(options);
  let inputValue: V = input as unknown as V, dataValue: V = (data ?? EMPTY_OBJECT) as unknown as V;
  const result = g0DataAuthzAllow($, inputValue, dataValue);
  if (result === undefined) throw internalError("entrypoint authz/allow produced no value");
  return $.done(result) as boolean;
}

/* g0.data.authz.allow */
function g0DataAuthzAllow($: EvalState, input: V, data: V): V {
  let allow: V, l5: V, l6: V, l7: V, l8: V, grant: V, l15: V, l16: V, l17: V, l18: V, l19: V, l22: V, l23: V;
  // policies/authz.rego:14
  b0: {
    l22 = inputUser(input); if (l22 === undefined) break b0;
    l23 = dotRole(l22); if (l23 === undefined) break b0;
    if ((l23 as V) !== "admin") break b0;
    allow = true;
  }
  // policies/authz.rego:17
  b1: if (allow === undefined) {
    if (l22 === undefined) break b1;
    l5 = dotId(l22); if (l5 === undefined) break b1;
    l6 = inputResource(input); if (l6 === undefined) break b1;
    l7 = dotOwnerId(l6); if (l7 === undefined) break b1;
    if (typeof l5 === "string" ? l5 !== (l7 as V) : !equal(l5, l7)) break b1;
    allow = true;
  }
  // policies/authz.rego:21
  b2: if (allow === undefined) {
    if (l22 === undefined) break b2;
    l5 = dotId(l22); if (l5 === undefined) break b2;
    l7 = dotPermissions(data); if (l7 === undefined) break b2;
    l8 = dotData(l7, l5); if (l8 === undefined) break b2;
    l16 = inputAction(input); if (l16 === undefined) break b2;
    l18 = inputResource(input); if (l18 === undefined) break b2;
    l19 = dotType(l18); if (l19 === undefined) break b2;
    const x0 = l8, v0 = Array.isArray(x0) ? x0 : scanView(x0), ar0 = (x0 as V) === v0;
    s0: for (let i0 = 0; i0 < v0.length; ) {
      st0: for (const e0 = tickTo($, i0, v0.length); i0 < e0; i0++) {
        grant = ar0 ? v0[i0] as V : scanValue(x0, v0, i0);
        l15 = grant !== undefined && grant !== null && (grant as PlainObject)["action"] !== undefined && (getPrototypeOf(grant) === OBJECT_PROTOTYPE ? !("action" in OBJECT_PROTOTYPE) : getPrototypeOf(grant) === null) ? (grant as PlainObject)["action"] : dotKey(grant, "action"); if (l15 === undefined) continue st0;
        if (typeof l15 === "string" ? l15 !== (l16 as V) : !equal(l15, l16)) continue st0;
        l17 = grant !== undefined && grant !== null && (grant as PlainObject)["resource"] !== undefined && (getPrototypeOf(grant) === OBJECT_PROTOTYPE ? !("resource" in OBJECT_PROTOTYPE) : getPrototypeOf(grant) === null) ? (grant as PlainObject)["resource"] : dotKey(grant, "resource"); if (l17 === undefined) continue st0;
        if (typeof l17 === "string" ? l17 !== (l19 as V) : !equal(l17, l19)) continue st0;
        allow = true;
        break b2;
      }
    }
  }
  // policies/authz.rego:11
  if (allow === undefined) { allow = false; }
  return allow;
}

/* entrypoint name -> function */
export const entrypoints: EntrypointTable = {
  ["authz/allow"]: { kind: "value", binding: "result", async: false, fn: authzAllow },
};
