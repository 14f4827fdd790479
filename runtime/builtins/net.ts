// Builtins of OPA's "net" category: CIDR tests and arithmetic on Go's IP semantics (go/netip.ts),
// and net.lookup_ip_addr through the system resolver (node:dns, loaded on first use; async).
//
// Where OPA's own messages are odd they are kept: both operands of net.cidr_intersects (and the
// second of net.cidr_contains) are reported as "operand 1", as OPA reports them.
// One deliberate limit: net.cidr_expand refuses networks of more than 2^20 addresses (OPA would
// try to build the set until the evaluation is cancelled).
import { RegoSet, isObject, objectEntries } from "../value/index.js";
import type { Value } from "../value/value.js";
import { cancelError } from "../errors.js";
import { builtinError, goErrors, str, succeeds } from "./args.js";
import { nodeModule } from "./node.js";
import type { BuiltinTable } from "./registry.js";
import {
  CIDRParseError,
  bigToIP,
  defaultMask,
  ipString,
  ipToBig,
  maskIP,
  maskSize,
  netContains,
  netRange,
  netString,
  parseCIDR,
  parseIP,
  to4,
  type IPNet,
} from "./go/netip.js";

/** The largest network net.cidr_expand enumerates. */
export const CIDR_EXPAND_LIMIT = 1 << 20;

function parseNet(v: Value): IPNet {
  return cidr(str(v, 1)).net;
}

const cidr = (s: string): ReturnType<typeof parseCIDR> => goErrors(CIDRParseError, () => parseCIDR(s));

function cidrContains(a: Value, b: Value): boolean {
  const outer = parseNet(a);
  const text = str(b, 1);
  const ip = parseIP(text);
  if (ip) return netContains(outer, ip);
  let inner: IPNet;
  try {
    inner = parseCIDR(text).net;
  } catch {
    throw builtinError(`not a valid textual representation of an IP address or CIDR: ${text}`);
  }
  if (!netContains(outer, inner.ip)) return false;
  const [, last] = netRange(inner);
  return netContains(outer, bigToIP(last));
}

function cidrIntersects(a: Value, b: Value): boolean {
  const na = parseNet(a);
  const nb = parseNet(b);
  return netContains(na, nb.ip) || netContains(nb, na.ip);
}

function cidrIsValid(v: Value): boolean {
  return typeof v === "string" && succeeds(Error, () => parseCIDR(v));
}

function cidrExpand(v: Value): RegoSet {
  const s = str(v, 1);
  const { ip, net } = cidr(s);
  const [ones, bits] = maskSize(net.mask);
  const count = 2n ** BigInt(bits - ones);
  if (count > BigInt(CIDR_EXPAND_LIMIT)) {
    throw builtinError(`CIDR too large to expand: ${s} has ${count} addresses (limit ${CIDR_EXPAND_LIMIT})`);
  }
  const out = new RegoSet();
  const start = maskIP(ip, net.mask)!;
  if (start.length === 4) {
    const base = ((start[0]! << 24) >>> 0) + (start[1]! << 16) + (start[2]! << 8) + start[3]!;
    for (let i = 0; i < Number(count); i++) {
      const n = base + i;
      out.add(`${n >>> 24}.${(n >>> 16) & 0xff}.${(n >>> 8) & 0xff}.${n & 0xff}`);
    }
    return out;
  }
  const base = ipToBig(start);
  for (let i = 0n; i < count; i++) out.add(ipString(bigToIP(base + i)));
  return out;
}

// ---- net.cidr_contains_matches ----

type MatchIter = (cidrValue: Value, index: Value) => void;

function matchTerm(operand: number, v: Value): Value {
  if (typeof v === "string") return v;
  if (Array.isArray(v) && v.length > 0) return v[0]!;
  throw builtinError(`operand ${operand}: element must be string or non-empty array`);
}

function eachMatchOperand(operand: number, v: Value, iter: MatchIter): void {
  if (typeof v === "string") return iter(v, v);
  if (Array.isArray(v)) {
    v.forEach((e, i) => iter(matchTerm(operand, e), i));
    return;
  }
  if (v instanceof RegoSet) {
    for (const e of v.sorted()) iter(matchTerm(operand, e), e);
    return;
  }
  if (isObject(v)) {
    for (const [k, e] of objectEntries(v)) iter(matchTerm(operand, e), k);
  }
  // Any other type contributes no pairs (OPA returns an empty set).
}

function cidrContainsMatches(a: Value, b: Value): RegoSet {
  const out = new RegoSet();
  eachMatchOperand(1, a, (cidrA, indexA) => {
    eachMatchOperand(2, b, (cidrB, indexB) => {
      if (cidrContains(cidrA, cidrB)) out.add([indexA, indexB]);
    });
  });
  return out;
}

// ---- net.cidr_merge ----

interface Block {
  first: bigint;
  last: bigint;
  /** The input network when this block was not merged with another (printed as given). */
  net: IPNet | undefined;
}

const V4_ZERO = 0xffffn << 32n;

function mergeElement(v: Value): IPNet {
  if (typeof v !== "string") throw builtinError("element must be string");
  const ip = parseIP(v);
  if (!ip) return cidr(v).net;
  const mask = defaultMask(ip);
  if (!mask) throw builtinError("IPv6 invalid: needs prefix length");
  return { ip, mask };
}

function cidrMerge(v: Value): RegoSet {
  let elements: readonly Value[];
  if (Array.isArray(v)) elements = v;
  else if (v instanceof RegoSet) elements = v.sorted();
  else throw builtinError("operand must be an array");
  const blocks: Block[] = elements.map((e) => {
    const net = mergeElement(e);
    const [first, last] = netRange(net);
    return { first, last, net };
  });
  // OPA sorts by last address, then first, and folds each range into its predecessor when they
  // overlap or touch; unmerged ranges keep their original network text.
  blocks.sort((x, y) => (x.last !== y.last ? (x.last < y.last ? -1 : 1) : x.first < y.first ? -1 : x.first > y.first ? 1 : 0));
  for (let i = blocks.length - 1; i > 0; i--) {
    const cur = blocks[i]!;
    const prevIP = cur.first === 0n || cur.first === V4_ZERO ? cur.first : cur.first - 1n;
    const before = blocks[i - 1]!;
    if (prevIP <= before.last) {
      blocks[i - 1] = { first: before.first < cur.first ? before.first : cur.first, last: cur.last, net: undefined };
      blocks.splice(i, 1);
    }
  }
  const out = new RegoSet();
  for (const b of blocks) {
    if (b.net) out.add(netString(b.net));
    else for (const n of rangeToCIDRs(b.first, b.last)) out.add(n);
  }
  return out;
}

/** The fewest aligned networks covering [first, last], in the 128-bit space. */
function rangeToCIDRs(first: bigint, last: bigint): string[] {
  const out: string[] = [];
  let cur = first;
  while (cur <= last) {
    let size = 0n; // host bits of the block starting at cur
    while (size < 128n && (cur & ((1n << (size + 1n)) - 1n)) === 0n && cur + (1n << (size + 1n)) - 1n <= last) size++;
    out.push(blockString(cur, Number(size)));
    cur += 1n << BigInt(size);
  }
  return out;
}

function blockString(start: bigint, hostBits: number): string {
  const ip = bigToIP(start);
  if (to4(ip) && hostBits <= 32) return `${ipString(ip)}/${32 - hostBits}`;
  return `${ipString(ip)}/${128 - hostBits}`;
}

// ---- net.lookup_ip_addr ----

async function lookupIPAddr(v: Value): Promise<RegoSet> {
  const name = str(v, 1);
  const { lookup } = nodeModule<typeof import("node:dns/promises")>("dns/promises");
  let addrs: { address: string }[];
  try {
    addrs = await lookup(name, { all: true, verbatim: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // A timed-out lookup stops the evaluation, as OPA halts it (eval_cancel_error always propagates).
    if (code === "ETIMEOUT" || code === "ECANCELLED") {
      throw cancelError(`net.lookup_ip_addr: lookup ${name}: i/o timeout`);
    }
    if (code === "ENOTFOUND" || code === "ENODATA") throw builtinError(`lookup ${name}: no such host`);
    throw builtinError(`lookup ${name}: ${(e as Error).message}`);
  }
  const out = new RegoSet();
  for (const { address } of addrs) {
    const [addr, zone] = address.split("%", 2) as [string, string | undefined];
    const ip = parseIP(addr);
    const text = ip ? ipString(ip) : addr;
    out.add(zone ? `${text}%${zone}` : text);
  }
  return out;
}

export const netBuiltins: BuiltinTable = {
  "net.cidr_contains": { fn: (_ctx, a, b) => cidrContains(a, b) },
  "net.cidr_contains_matches": { fn: (_ctx, a, b) => cidrContainsMatches(a, b) },
  "net.cidr_expand": { fn: (_ctx, a) => cidrExpand(a) },
  "net.cidr_intersects": { fn: (_ctx, a, b) => cidrIntersects(a, b) },
  "net.cidr_is_valid": { fn: (_ctx, a) => cidrIsValid(a) },
  "net.cidr_merge": { fn: (_ctx, a) => cidrMerge(a) },
  // Deprecated alias of net.cidr_contains (OPA registers the same function).
  "net.cidr_overlap": { fn: (_ctx, a, b) => cidrContains(a, b) },
  "net.lookup_ip_addr": { fn: (_ctx, a) => lookupIPAddr(a), async: true, nondeterministic: true },
};
