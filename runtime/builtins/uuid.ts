// Builtins of OPA's "uuid" category. uuid.rfc4122 makes a version 4 UUID from the evaluation's
// random source (one value per evaluation and key: the registry caches nondeterministic builtins);
// uuid.parse reads the forms Go's google/uuid accepts (plain, urn:uuid:, {braced}, 32 hex digits)
// and reports OPA's fields: version and variant, plus time, clock sequence and node for versions 1
// and 2, and id and domain for version 2. Unparsable strings make it undefined, as in OPA.
import { fromBigInt } from "../value/number.js";
import { newPlainObject, setOwn, type Value } from "../value/value.js";
import { str } from "./args.js";
import type { EvalContext } from "./context.js";
import { utf8 } from "./go/strconv.js";
import type { BuiltinTable } from "./registry.js";

const hex2 = (b: number) => b.toString(16).padStart(2, "0");

function rfc4122(ctx: EvalContext, key: Value): Value {
  str(key, 1);
  const b = Array.from({ length: 16 }, () => Math.floor(ctx.random() * 256) & 0xff);
  b[8] = (b[8]! & 0x3f) | 0x80;
  b[6] = (b[6]! & 0x0f) | 0x40;
  const h = b.map(hex2).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

function xtob(s: string): number | undefined {
  return /^[0-9a-fA-F]{2}$/.test(s) ? parseInt(s, 16) : undefined;
}

/** google/uuid.Parse: the 16 bytes, or undefined. */
function parseUuid(input: string): number[] | undefined {
  let s = input;
  const len = utf8(s).length;
  if (len === 32 && s.length === 32) {
    const out: number[] = [];
    for (let i = 0; i < 16; i++) {
      const v = xtob(s.slice(i * 2, i * 2 + 2));
      if (v === undefined) return undefined;
      out.push(v);
    }
    return out;
  }
  if (len === 36 + 9) {
    if (s.slice(0, 9).toLowerCase() !== "urn:uuid:") return undefined;
    s = s.slice(9);
  } else if (len === 36 + 2) s = s.slice(1);
  else if (len !== 36) return undefined;
  if (s.length < 36 || s[8] !== "-" || s[13] !== "-" || s[18] !== "-" || s[23] !== "-") return undefined;
  const out: number[] = [];
  for (const x of [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34]) {
    const v = xtob(s.slice(x, x + 2));
    if (v === undefined) return undefined;
    out.push(v);
  }
  return out;
}

function variantName(b8: number): string {
  if ((b8 & 0xc0) === 0x80) return "RFC4122";
  if ((b8 & 0xe0) === 0xc0) return "Microsoft";
  if ((b8 & 0xe0) === 0xe0) return "Future";
  return "Reserved";
}

function macVariables(b: number): string {
  if ((b & 0b11) === 0b11) return "local:multicast";
  if ((b & 0b01) === 0b01) return "global:multicast";
  if ((b & 0b10) === 0b10) return "local:unicast";
  return "global:unicast";
}

const DOMAINS = ["Person", "Group", "Org"];

/** 100-nanosecond intervals between 1582-10-15 and the Unix epoch. */
const G1582 = 122192928000000000n;

function uuidParse(_ctx: EvalContext, x: Value): Value | undefined {
  const u = parseUuid(str(x, 1));
  if (u === undefined) return undefined;
  const out = newPlainObject();
  const version = u[6]! >> 4;
  setOwn(out, "version", version);
  setOwn(out, "variant", variantName(u[8]!));
  if (version === 1 || version === 2) {
    const be = (from: number, to: number) => u.slice(from, to).reduce((acc, b) => (acc << 8n) | BigInt(b), 0n);
    const time = be(0, 4) | (be(4, 6) << 32n) | ((be(6, 8) & 0xfffn) << 48n);
    // Go: sec*1e9 + nsec of (time - G1582) in 100-nanosecond units, in int64 arithmetic.
    setOwn(out, "time", fromBigInt(BigInt.asIntN(64, (time - G1582) * 100n)));
    setOwn(out, "nodeid", u.slice(10, 16).map(hex2).join("-"));
    setOwn(out, "macvariables", macVariables(u[10]!));
    setOwn(out, "clocksequence", Number(be(8, 10) & 0x3fffn));
    if (version === 2) {
      setOwn(out, "id", Number(be(0, 4)));
      const d = u[9]!;
      setOwn(out, "domain", DOMAINS[d] ?? `Domain${d}`);
    }
  }
  return out;
}

export const uuidBuiltins: BuiltinTable = {
  "uuid.rfc4122": { fn: rfc4122, nondeterministic: true },
  "uuid.parse": { fn: uuidParse },
};
