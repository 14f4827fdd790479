import { expect } from "chai";
import { RegoSet, toJSON, type Value } from "regoc";
import { EvalContext } from "../../../../runtime/builtins/context.js";
import { getBuiltin } from "../../../../runtime/builtins/registry.js";
import { builtinErr, builtinErrorAsync, callBuiltinAsync, runCases, typeErr, type BuiltinCase } from "../../../support/builtins.js";

const set = (...xs: Value[]) => new RegoSet(xs);

describe("builtins: net.cidr_contains / net.cidr_overlap / net.cidr_intersects", () => {
  const cases: BuiltinCase[] = [
    { note: "ip in v4 net", name: "net.cidr_contains", args: ["10.0.0.0/8", "10.1.2.3"], want: true },
    { note: "ip outside v4 net", name: "net.cidr_contains", args: ["10.0.0.0/8", "11.0.0.1"], want: false },
    { note: "subnet", name: "net.cidr_contains", args: ["10.0.0.0/8", "10.1.0.0/24"], want: true },
    { note: "wider subnet", name: "net.cidr_contains", args: ["172.17.0.0/24", "172.17.0.0/16"], want: false },
    { note: "host bits of the outer net are ignored", name: "net.cidr_contains", args: ["10.1.2.3/8", "10.200.0.0/16"], want: true },
    { note: "v6 subnet", name: "net.cidr_contains", args: ["2001:4860:4860::8888/32", "2001:4860:4860:1234::8888/40"], want: true },
    { note: "v6 ip", name: "net.cidr_contains", args: ["fd00::/8", "fdff::1"], want: true },
    { note: "v4 ip in v6 net", name: "net.cidr_contains", args: ["::/0", "1.2.3.4"], want: false },
    { note: "v4-mapped v6 ip counts as v4", name: "net.cidr_contains", args: ["1.2.3.0/24", "::ffff:1.2.3.4"], want: true },
    { note: "/0 contains everything v4", name: "net.cidr_contains", args: ["0.0.0.0/0", "255.255.255.255"], want: true },
    { note: "/32 contains itself", name: "net.cidr_contains", args: ["192.168.1.1/32", "192.168.1.1"], want: true },
    { note: "invalid outer CIDR", name: "net.cidr_contains", args: ["not-a-cidr", "1.1.1.1"], error: builtinErr("invalid CIDR address: not-a-cidr") },
    { note: "v4 without prefix is not a CIDR", name: "net.cidr_contains", args: ["10.0.0.1", "10.0.0.1"], error: builtinErr("invalid CIDR address: 10.0.0.1") },
    { note: "prefix too long", name: "net.cidr_contains", args: ["10.0.0.0/33", "10.0.0.1"], error: builtinErr("invalid CIDR address: 10.0.0.0/33") },
    { note: "leading zeros in v4", name: "net.cidr_contains", args: ["010.0.0.0/8", "10.0.0.1"], error: builtinErr("invalid CIDR address: 010.0.0.0/8") },
    { note: "zones are refused", name: "net.cidr_contains", args: ["fe80::%eth0/64", "fe80::1"], error: builtinErr("invalid CIDR address: fe80::%eth0/64") },
    {
      note: "invalid inner",
      name: "net.cidr_contains",
      args: ["10.0.0.0/8", "ten"],
      error: builtinErr("not a valid textual representation of an IP address or CIDR: ten"),
    },
    { note: "non-string operand (OPA says operand 1)", name: "net.cidr_contains", args: ["10.0.0.0/8", 5], error: typeErr("operand 1 must be string but got number") },
    { note: "overlap is contains", name: "net.cidr_overlap", args: ["10.0.0.0/8", "10.1.2.3"], want: true },
    { note: "intersects", name: "net.cidr_intersects", args: ["192.168.1.0/25", "192.168.1.64/25"], want: true },
    { note: "disjoint", name: "net.cidr_intersects", args: ["192.168.1.0/24", "192.168.2.0/24"], want: false },
    { note: "v6 intersects", name: "net.cidr_intersects", args: ["fd1e:5bfe:8af3:9ddc::/64", "fd1e:5bfe:8af3:9ddc:1111::/72"], want: true },
    { note: "v4 vs v6", name: "net.cidr_intersects", args: ["0.0.0.0/0", "::/0"], want: false },
    { note: "intersects invalid", name: "net.cidr_intersects", args: ["10.0.0.0/8", "x"], error: builtinErr("invalid CIDR address: x") },
  ];
  runCases("net.cidr_contains", cases);
});

describe("builtins: net.cidr_is_valid / net.cidr_expand", () => {
  const cases: BuiltinCase[] = [
    { note: "valid v4", name: "net.cidr_is_valid", args: ["192.168.1.0/24"], want: true },
    { note: "valid v6", name: "net.cidr_is_valid", args: ["2002::1234:abcd:ffff:c0a8:101/64"], want: true },
    { note: "ip only", name: "net.cidr_is_valid", args: ["192.168.1.2"], want: false },
    { note: "empty", name: "net.cidr_is_valid", args: [""], want: false },
    { note: "prefix with leading zero is fine", name: "net.cidr_is_valid", args: ["10.0.0.0/08"], want: true },
    { note: "signed prefix", name: "net.cidr_is_valid", args: ["10.0.0.0/+8"], want: false },
    { note: "v6 prefix 129", name: "net.cidr_is_valid", args: ["::/129"], want: false },
    { note: "octal-looking v4", name: "net.cidr_is_valid", args: ["01.2.3.4/8"], want: false },
    { note: "not a string", name: "net.cidr_is_valid", args: [42], want: false },
    { note: "expand /30", name: "net.cidr_expand", args: ["192.168.1.1/30"], want: set("192.168.1.0", "192.168.1.1", "192.168.1.2", "192.168.1.3") },
    { note: "expand /32", name: "net.cidr_expand", args: ["192.168.1.1/32"], want: set("192.168.1.1") },
    { note: "expand across an octet", name: "net.cidr_expand", args: ["10.0.0.254/31"], want: set("10.0.0.254", "10.0.0.255") },
    { note: "expand v6", name: "net.cidr_expand", args: ["2001:db8::/126"], want: set("2001:db8::", "2001:db8::1", "2001:db8::2", "2001:db8::3") },
    { note: "expand invalid", name: "net.cidr_expand", args: ["192.168.1.1/33"], error: builtinErr("invalid CIDR address: 192.168.1.1/33") },
    {
      note: "huge expansions are refused",
      name: "net.cidr_expand",
      args: ["10.0.0.0/8"],
      error: builtinErr("CIDR too large to expand: 10.0.0.0/8 has 16777216 addresses (limit 1048576)"),
    },
    {
      note: "huge v6 expansions are refused",
      name: "net.cidr_expand",
      args: ["::/0"],
      error: builtinErr("CIDR too large to expand: ::/0 has 340282366920938463463374607431768211456 addresses (limit 1048576)"),
    },
  ];
  runCases("net.cidr_is_valid", cases);

  it("expands the largest allowed network", function () {
    this.timeout(30_000);
    const def = getBuiltin("net.cidr_expand")!;
    const got = (def.fn as (ctx: EvalContext, ...a: Value[]) => Value)(new EvalContext(), "10.0.0.0/12") as RegoSet;
    expect(got.size).to.equal(1 << 20);
    expect(got.has("10.15.255.255")).to.equal(true);
  });
});

describe("builtins: net.cidr_merge", () => {
  const cases: BuiltinCase[] = [
    { note: "adjacent /24s", args: [["192.0.128.0/24", "192.0.129.0/24"]], want: set("192.0.128.0/23") },
    { note: "contained", args: [["192.0.2.112/30", "192.0.2.116/31", "192.0.2.118/31"]], want: set("192.0.2.112/29") },
    { note: "no overlap", args: [["192.0.2.112/30", "192.0.2.116/32", "192.0.2.118/31"]], want: set("192.0.2.112/30", "192.0.2.116/32", "192.0.2.118/31") },
    { note: "split result", args: [["192.0.2.112/31", "192.0.2.116/31", "192.0.2.118/31"]], want: set("192.0.2.112/31", "192.0.2.116/30") },
    { note: "zero address swallows all v4", args: [["192.0.128.0/24", "0.0.0.0/0"]], want: set("0.0.0.0/0") },
    { note: "v6 zero swallows v6 and mapped v4", args: [["::/0", "::192.0.2.0/124", "ff00::101/128"]], want: set("::/0") },
    { note: "v4 and v6 kept apart", args: [["fe80::/120", "192.0.2.0/24", "192.0.3.0/24"]], want: set("192.0.2.0/23", "fe80::/120") },
    { note: "bare ip gets its classful mask", args: [["192.0.2.112"]], want: set("192.0.2.112/24") },
    { note: "bare class A ip", args: [["10.1.2.3"]], want: set("10.1.2.3/8") },
    { note: "bare ips merged", args: [["192.0.128.0", "192.0.129.0"]], want: set("192.0.128.0/23") },
    { note: "duplicates", args: [["192.0.128.0/24", "192.0.128.0/24"]], want: set("192.0.128.0/24") },
    { note: "set operand", args: [set("10.0.0.0/25", "10.0.0.128/25")], want: set("10.0.0.0/24") },
    { note: "empty", args: [[]], want: set() },
    { note: "v6 text is RFC 5952", args: [["2001:0DB8:0000:0000:0000:0000:0000:0001/128"]], want: set("2001:db8::1/128") },
    { note: "v6 range decomposed", args: [["2001:db8::/127", "2001:db8::2/127", "2001:db8::4/126"]], want: set("2001:db8::/125") },
    { note: "bare v6 needs a prefix", args: [["2601:600:8a80:207e:a57d:7567:e2c9:e7b3"]], error: builtinErr("IPv6 invalid: needs prefix length") },
    { note: "garbage", args: [["foo"]], error: builtinErr("invalid CIDR address: foo") },
    { note: "non-string element", args: [[1]], error: builtinErr("element must be string") },
    { note: "not a collection", args: ["10.0.0.0/8"], error: builtinErr("operand must be an array") },
  ];
  runCases("net.cidr_merge", cases);
});

describe("builtins: net.cidr_contains_matches", () => {
  const cases: BuiltinCase[] = [
    { note: "strings", args: ["1.1.1.0/24", "1.1.1.1"], want: set(["1.1.1.0/24", "1.1.1.1"]) },
    { note: "arrays give indexes", args: [["1.1.2.0/24", "1.1.1.0/24"], ["1.1.1.1", "1.1.2.1"]], want: set([0, 1], [1, 0]) },
    { note: "tuples use their first element", args: [[["1.1.2.0/24", "x"]], ["1.1.2.9"]], want: set([0, 0]) },
    { note: "objects give keys", args: [{ a: "10.0.0.0/8", b: ["192.168.0.0/16", 1] }, "10.9.9.9"], want: set(["a", "10.9.9.9"]) },
    { note: "sets give elements", args: [set(["1.1.1.0/24", "bar"]), set("1.1.1.5")], want: set([["1.1.1.0/24", "bar"], "1.1.1.5"]) },
    { note: "no match", args: ["10.0.0.0/8", "11.0.0.1"], want: set() },
    { note: "other types give nothing", args: [5, "1.1.1.1"], want: set() },
    { note: "empty tuple", args: ["1.1.1.0/24", [[]]], error: builtinErr("operand 2: element must be string or non-empty array") },
    { note: "number element", args: [[5], "1.1.1.1"], error: builtinErr("operand 1: element must be string or non-empty array") },
    { note: "invalid cidr", args: [["nope"], "1.1.1.1"], error: builtinErr("invalid CIDR address: nope") },
  ];
  runCases("net.cidr_contains_matches", cases);
});

describe("builtins: net.lookup_ip_addr", () => {
  const lookup = (name: Value, strict = true) => callBuiltinAsync("net.lookup_ip_addr", [name], { strictBuiltinErrors: strict });

  it("returns an IP literal as itself (v4 and v6, Go's text)", async () => {
    expect(toJSON((await lookup("10.0.0.0"))!)).to.deep.equal(["10.0.0.0"]);
    expect(toJSON((await lookup("::"))!)).to.deep.equal(["::"]);
    expect(toJSON((await lookup("2001:0db8::0001"))!)).to.deep.equal(["2001:db8::1"]);
  });

  it("resolves localhost to a loopback address", async () => {
    const got = toJSON((await lookup("localhost"))!) as string[];
    expect(got.length).to.be.greaterThan(0);
    for (const a of got) expect(["127.0.0.1", "::1"]).to.include(a);
  });

  // A label longer than 63 bytes is refused by the resolver library itself: no query leaves the
  // machine, and the answer does not depend on the network.
  const unknown = `${"x".repeat(64)}.invalid`;

  it("reports an unknown name as Go does, or undefined when not strict", async () => {
    const err = await builtinErrorAsync("net.lookup_ip_addr", [unknown]);
    expect(err.code).to.equal("eval_builtin_error");
    expect(err.message).to.equal(`net.lookup_ip_addr: lookup ${unknown}: no such host`);
    expect(await lookup(unknown, false)).to.equal(undefined);
  });

  it("checks its operand", async () => {
    const err = await builtinErrorAsync("net.lookup_ip_addr", [1]);
    expect(err.code).to.equal("eval_type_error");
    expect(err.message).to.equal("net.lookup_ip_addr: operand 1 must be string but got number");
  });
});
