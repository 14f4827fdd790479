// Heavy builtins against the plain library call each one wraps, measured in the same run:
// ns per call (the median of a few interleaved rounds) and the ratio builtin / baseline.
// Builtins are called as generated code calls them: the registry's function with an EvalContext.
import { constants, createSign, generateKeyPairSync, verify, type KeyObject } from "node:crypto";
import { format } from "node:util";
import { RE2JS } from "re2js";
import { EvalContext } from "../runtime/builtins/context.js";
import { loadAllBuiltins } from "../runtime/builtins/catalog.js";
import { getBuiltin, type BuiltinFn } from "../runtime/builtins/registry.js";
import type { Value } from "../runtime/value/value.js";
import { median, nsPerCall, type Bench } from "./util.js";

const ROUNDS = 5;

function builtin(name: string): BuiltinFn {
  const def = getBuiltin(name);
  if (!def) throw new Error(`no builtin ${name}`);
  return def.fn as BuiltinFn;
}

interface Row {
  builtin: string;
  note: string;
  baseline: string;
  ours: () => unknown;
  plain: () => unknown;
  /** Calls that take milliseconds: timed one by one, this many times per round (else nsPerCall). */
  calls?: number;
}

/** A JSON document of about `bytes` bytes: objects with strings, numbers, booleans and arrays. */
function document(bytes: number): unknown[] {
  const out: unknown[] = [];
  let size = 2;
  for (let i = 0; size < bytes; i++) {
    const item = {
      id: i,
      name: `user-${i}`,
      email: `user${i}@example.com`,
      active: i % 3 !== 0,
      score: i * 1.25,
      roles: ["reader", i % 5 === 0 ? "admin" : "writer"],
      address: { street: `${i} Main Street`, city: "Springfield", zip: String(10000 + (i % 90000)) },
      tags: { team: `t${i % 17}`, level: i % 4, note: "<a & b>" },
    };
    size += JSON.stringify(item).length + 1;
    out.push(item);
  }
  return out;
}

const b64url = (b: Buffer | string): string => Buffer.from(b).toString("base64url");

function rs256Token(privateKey: KeyObject): string {
  const header = b64url(JSON.stringify({ alg: "RS256", typ: "JWT" }));
  const payload = b64url(JSON.stringify({ sub: "alice", iss: "bench", exp: 4102444800, roles: ["reader"] }));
  const sig = createSign("RSA-SHA256").update(`${header}.${payload}`).sign(privateKey);
  return `${header}.${payload}.${b64url(sig)}`;
}

function rows(): Row[] {
  const ctx = new EvalContext();
  const out: Row[] = [];

  // regex.match: the pattern is compiled once and cached; the baseline holds the compiled RE2JS.
  const pattern = "^[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,}$";
  const subject = "some.user+tag@example.co.uk";
  const regexMatch = builtin("regex.match");
  const re = RE2JS.compile(pattern);
  out.push({ builtin: "regex.match", note: "cached e-mail pattern", baseline: "re2js `test`, precompiled", ours: () => regexMatch(ctx, pattern, subject), plain: () => re.test(subject) });

  // io.jwt.verify_rs256: the key's PEM is parsed once (cached); the baseline is node:crypto's verify
  // of the same token with a ready KeyObject (split, base64url-decode the signature, verify).
  const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const pem = publicKey.export({ type: "spki", format: "pem" }) as string;
  const token = rs256Token(privateKey);
  const verifyRs256 = builtin("io.jwt.verify_rs256");
  if (verifyRs256(ctx, token, pem) !== true) throw new Error("io.jwt.verify_rs256 did not verify the bench token");
  out.push({
    builtin: "io.jwt.verify_rs256",
    note: "2048-bit key, PEM public key",
    baseline: "node:crypto `verify`",
    ours: () => verifyRs256(ctx, token, pem),
    plain: () => {
      const dot = token.lastIndexOf(".");
      return verify("sha256", Buffer.from(token.slice(0, dot)), { key: publicKey, padding: constants.RSA_PKCS1_PADDING }, Buffer.from(token.slice(dot + 1), "base64url"));
    },
  });

  // json.marshal / json.unmarshal of a ~1 MB document.
  const doc = document(1_000_000);
  const text = JSON.stringify(doc);
  const kb = Math.round(text.length / 1024);
  const marshal = builtin("json.marshal");
  const unmarshal = builtin("json.unmarshal");
  out.push({ builtin: "json.marshal", note: `${kb} KiB document`, baseline: "`JSON.stringify`", ours: () => marshal(ctx, doc as Value), plain: () => JSON.stringify(doc), calls: 15 });
  out.push({ builtin: "json.unmarshal", note: `${kb} KiB document`, baseline: "`JSON.parse`", ours: () => unmarshal(ctx, text), plain: () => JSON.parse(text), calls: 15 });

  // glob.match: the glob is compiled to an RE2 program once (cached); the baseline runs that program.
  const globMatch = builtin("glob.match");
  const globRe = RE2JS.compile("(?s)\\A(?:api\\.)[^.]*(?:\\.example\\.com)\\z");
  out.push({ builtin: "glob.match", note: "`api.*.example.com`, delimiter `.`", baseline: "re2js `matches`, the same program precompiled", ours: () => globMatch(ctx, "api.*.example.com", ["."], "api.eu.example.com"), plain: () => globRe.matches("api.eu.example.com") });

  // time.parse_rfc3339_ns against Date.parse (milliseconds only, no Go layout checks).
  const parseRfc3339 = builtin("time.parse_rfc3339_ns");
  const stamp = "2024-05-17T13:45:12.123456789+02:00";
  out.push({ builtin: "time.parse_rfc3339_ns", note: "nanoseconds and an offset", baseline: "`Date.parse` (ms)", ours: () => parseRfc3339(ctx, stamp), plain: () => Date.parse(stamp) });

  // sprintf against node:util's format.
  const sprintf = builtin("sprintf");
  const args: Value[] = ["alice", 42, 3.5];
  out.push({ builtin: "sprintf", note: "`%s has %d items at %.2f`", baseline: "node:util `format`", ours: () => sprintf(ctx, "%s has %d items at %.2f", args), plain: () => format("%s has %d items at %d", "alice", 42, 3.5) });
  return out;
}

/** ns per call of a slow function: a few warm-up calls, then the median of `calls` timed calls. */
function slowNsPerCall(fn: () => unknown, calls: number): number {
  for (let i = 0; i < 3; i++) fn();
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    const t0 = process.hrtime.bigint();
    fn();
    times.push(Number(process.hrtime.bigint() - t0));
  }
  return median(times);
}

const measure = (fn: () => unknown, calls: number | undefined): number => (calls ? slowNsPerCall(fn, calls) : nsPerCall(fn, 300));

const fmt = (ns: number): string => (ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : ns >= 1e4 ? `${(ns / 1e3).toFixed(1)} µs` : `${ns.toFixed(0)} ns`);

const bench: Bench = {
  title: "Builtins against their plain library calls",
  async run() {
    await loadAllBuiltins();
    const lines = [
      `Median of ${ROUNDS} interleaved rounds. The builtins' own cost on top of the library: operand checks, Go's semantics (escaping, sorted keys, exact numbers, error texts) and the caches.`,
      "",
      "| builtin | case | ns/op | baseline | baseline ns/op | ratio |",
      "|---|---|---|---|---|---|",
    ];
    for (const r of rows()) {
      const ours: number[] = [];
      const plain: number[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        ours.push(measure(r.ours, r.calls));
        plain.push(measure(r.plain, r.calls));
      }
      const o = median(ours);
      const p = median(plain);
      lines.push(`| ${r.builtin} | ${r.note} | ${fmt(o)} | ${r.baseline} | ${fmt(p)} | ${(o / p).toFixed(2)}× |`);
    }
    return lines.join("\n");
  },
};

export default bench;
