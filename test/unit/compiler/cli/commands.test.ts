// The frontend's commands (`regoc plan`, `regoc eval`, `regoc check`) and the optional bridge to
// an `opa` binary, exercised with a fake executable standing in for opa.
import { expect } from "chai";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import checkCommand from "../../../../compiler/cli/check.js";
import evalCommand from "../../../../compiler/cli/eval.js";
import planCommand from "../../../../compiler/cli/plan.js";
import { opaFromEnv, planWithOpa } from "../../../../compiler/opa.js";
import { RegoError } from "../../../../runtime/errors.js";
import { captureOutput } from "../../../support/cli.js";

const capture = captureOutput;

const POLICY = `package authz

default allow := false

allow if input.user == "admin"

names contains n if some n in ["a", "b"]
`;

/** A stand-in for `opa`: records its arguments and writes a bundle holding /plan.json. */
function fakeOpa(dir: string, opts: { fail?: boolean } = {}): string {
  const bin = join(dir, "opa");
  const plan = JSON.stringify({ static: { strings: [{ value: "from-fake-opa" }] }, plans: { plans: [] }, funcs: { funcs: [] } });
  const script = opts.fail
    ? `#!/bin/sh\necho "1 error occurred: policy.rego:3: rego_parse_error: unexpected eof" >&2\nexit 1\n`
    : `#!/bin/sh
printf '%s\\n' "$@" > "${join(dir, "args.txt")}"
out=""
prev=""
for a in "$@"; do
  if [ "$prev" = "-o" ]; then out="$a"; fi
  prev="$a"
done
work="${join(dir, "work")}"
mkdir -p "$work"
printf '%s' '${plan}' > "$work/plan.json"
printf '{}' > "$work/data.json"
tar czf "$out" -C "$work" plan.json data.json
`;
  writeFileSync(bin, script);
  chmodSync(bin, 0o755);
  return bin;
}

describe("cli: regoc plan / eval / check", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "regoc-cli-test-"));
    writeFileSync(join(dir, "authz.rego"), POLICY);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("plan prints OPA's plan.json shape for the entrypoints", async () => {
    const { code, out } = await capture(() => planCommand.run([join(dir, "authz.rego"), "-e", "authz/allow"]));
    expect(code).to.equal(0);
    const plan = JSON.parse(out) as { plans: { plans: { name: string }[] }; funcs: { funcs: { name: string }[] } };
    expect(plan.plans.plans.map((p) => p.name)).to.deep.equal(["authz/allow"]);
    expect(plan.funcs.funcs.map((f) => f.name)).to.include("g0.data.authz.allow");
  });

  it("plan without an entrypoint is a usage error", async () => {
    let err: unknown;
    try {
      await planCommand.run([join(dir, "authz.rego")]);
    } catch (e) {
      err = e;
    }
    expect(err).to.be.instanceOf(RegoError);
    expect((err as RegoError).code).to.equal("cli_usage_error");
  });

  it("eval prints expressions with text and location, and bindings", async () => {
    writeFileSync(join(dir, "input.json"), JSON.stringify({ user: "admin" }));
    const { code, out } = await capture(() =>
      evalCommand.run(["-d", join(dir, "authz.rego"), "-i", join(dir, "input.json"), "x := data.authz.allow; data.authz.names[y]"]),
    );
    expect(code).to.equal(0);
    const res = JSON.parse(out) as { result: { expressions: { value: unknown; text: string; location: unknown }[]; bindings: object }[] };
    expect(res.result).to.have.length(2);
    expect(res.result[0]!.expressions).to.deep.equal([
      { value: true, text: "x := data.authz.allow", location: { row: 1, col: 1 } },
      { value: "a", text: "data.authz.names[y]", location: { row: 1, col: 24 } },
    ]);
    expect(res.result.map((r) => r.bindings)).to.deep.equal([
      { x: true, y: "a" },
      { x: true, y: "b" },
    ]);
  });

  it("eval of an undefined query prints {}", async () => {
    const { code, out } = await capture(() => evalCommand.run(["-d", join(dir, "authz.rego"), "x := data.authz.allow; x == true"]));
    expect(code).to.equal(0);
    expect(JSON.parse(out)).to.deep.equal({});
  });

  it("eval of a single comparison reports its value, as opa eval does", async () => {
    const { code, out } = await capture(() => evalCommand.run(["-d", join(dir, "authz.rego"), "data.authz.allow == true"]));
    expect(code).to.equal(0);
    expect(JSON.parse(out).result.map((r: { expressions: { value: unknown }[] }) => r.expressions[0]!.value)).to.deep.equal([false]);
  });

  it("eval -d places a non-object or empty data file at its directory's path, as regoc test does", async () => {
    // opa eval -d loads through the same loader as opa test: x/data.json holding [1,2] is data.x,
    // an empty x/e.yaml is data.e = null (v1/loader: makeDir around the decoded value).
    mkdirSync(join(dir, "data", "x"), { recursive: true });
    mkdirSync(join(dir, "data", "e"));
    writeFileSync(join(dir, "data", "x", "data.json"), "[1,2]");
    writeFileSync(join(dir, "data", "e", "data.yaml"), "");
    const { code, out } = await capture(() => evalCommand.run(["-d", join(dir, "data"), "[data.x, data.e == null]"]));
    expect(code).to.equal(0);
    expect(JSON.parse(out).result[0].expressions[0].value).to.deep.equal([[1, 2], true]);
    const ignored = await capture(() => evalCommand.run(["-d", join(dir, "data"), "--ignore", "x", "[data.e]"]));
    expect(JSON.parse(ignored.out).result[0].expressions[0].value).to.deep.equal([null]);
    const undef = await capture(() => evalCommand.run(["-d", join(dir, "data"), "--ignore", "*.json", "data.x"]));
    expect(JSON.parse(undef.out)).to.deep.equal({});
  });

  it("eval --explain fails: for an undefined query, the expression it stopped at and its operands' values on stderr", async () => {
    const r = await capture(() => evalCommand.run(["-d", join(dir, "authz.rego"), "--explain", "fails", 'x := {"a": 1}; x.a == count(data.authz.names)']));
    expect(r.code).to.equal(0);
    expect(JSON.parse(r.out)).to.deep.equal({});
    expect(r.err).to.equal('failed at query:1: x.a == count(data.authz.names)\n  x.a = 1\n  count(data.authz.names) = 2\n');
    const ok = await capture(() => evalCommand.run(["-d", join(dir, "authz.rego"), "--explain", "fails", "1 == 1"]));
    expect(ok.err).to.equal("");
  });

  it("eval --timeout: an evaluation past it is eval_cancel_error; a bad duration a usage error", async () => {
    const slow = "count([x | some x in numbers.range(1, 20000)])";
    const e = await capture(() => evalCommand.run(["--timeout", "1ns", slow])).catch((err: unknown) => err as RegoError);
    expect(e).to.be.instanceOf(RegoError);
    expect((e as RegoError).code).to.equal("eval_cancel_error");
    const ok = await capture(() => evalCommand.run(["--timeout", "1m", slow]));
    expect(JSON.parse(ok.out).result[0].expressions[0].value).to.equal(20000);
    const bad = await capture(() => evalCommand.run(["--timeout", "x", "1"])).catch((err: unknown) => err as RegoError);
    expect((bad as RegoError).code).to.equal("cli_usage_error");
  });

  it("check reports every error as file:row:col: code: message with a frame, exit 1", async () => {
    writeFileSync(join(dir, "bad.rego"), "package bad\n\np if {\n\tx := 1\n\ty\n}\n\nr if z > 1\n");
    const { code, out } = await capture(() => checkCommand.run([join(dir, "bad.rego")]));
    expect(code).to.equal(1);
    expect(out).to.contain(`${join(dir, "bad.rego")}:5:2: rego_unsafe_var_error: var y is unsafe`);
    expect(out).to.contain(`${join(dir, "bad.rego")}:8:6: rego_unsafe_var_error: var z is unsafe`);
    expect(out).to.match(/\n\s*5 \|\s+y\n/);
    expect(out.trimEnd().split("\n").pop()).to.equal("2 errors");
  });

  it("check of a clean policy exits 0", async () => {
    const { code } = await capture(() => checkCommand.run([join(dir, "authz.rego")]));
    expect(code).to.equal(0);
  });
});

describe("opa bridge (fake opa executable)", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "regoc-opa-test-"));
    writeFileSync(join(dir, "authz.rego"), POLICY);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("OPA_BIN names the binary; empty or unset means none", () => {
    expect(opaFromEnv({})).to.equal(undefined);
    expect(opaFromEnv({ OPA_BIN: " " })).to.equal(undefined);
    expect(opaFromEnv({ OPA_BIN: "/usr/local/bin/opa" })).to.equal("/usr/local/bin/opa");
  });

  it("runs `opa build -t plan` and reads plan.json from the bundle", async () => {
    const opa = fakeOpa(dir);
    const plan = (await planWithOpa({ opa, paths: [join(dir, "authz.rego")], entrypoints: ["authz/allow", "authz/names"], v0Compatible: true })) as unknown as {
      static: { strings: { value: string }[] };
    };
    expect(plan.static.strings[0]!.value).to.equal("from-fake-opa");
    const args = readFileSync(join(dir, "args.txt"), "utf8").trim().split("\n");
    expect(args.slice(0, 3)).to.deep.equal(["build", "-t", "plan"]);
    expect(args).to.include.members(["-e", "authz/allow", "authz/names", "--v0-compatible", join(dir, "authz.rego")]);
  });

  it("`regoc plan --opa PATH` prints the binary's plan", async () => {
    const opa = fakeOpa(dir);
    const { code, out } = await capture(() => planCommand.run([join(dir, "authz.rego"), "-e", "authz/allow", "--opa", opa]));
    expect(code).to.equal(0);
    expect(JSON.parse(out).static.strings[0].value).to.equal("from-fake-opa");
  });

  it("a failing build is a rego_compile_error carrying opa's message", async () => {
    const opa = fakeOpa(dir, { fail: true });
    let err: unknown;
    try {
      await planWithOpa({ opa, paths: [join(dir, "authz.rego")], entrypoints: ["authz/allow"] });
    } catch (e) {
      err = e;
    }
    expect(err).to.be.instanceOf(RegoError);
    expect((err as RegoError).code).to.equal("rego_compile_error");
    expect((err as RegoError).message).to.contain("opa build failed: 1 error occurred");
  });

  it("a missing binary is a rego_compile_error, not a crash", async () => {
    let err: unknown;
    try {
      await planWithOpa({ opa: join(dir, "no-such-opa"), paths: [join(dir, "authz.rego")], entrypoints: ["authz/allow"] });
    } catch (e) {
      err = e;
    }
    expect(err).to.be.instanceOf(RegoError);
    expect((err as RegoError).code).to.equal("rego_compile_error");
  });
});
