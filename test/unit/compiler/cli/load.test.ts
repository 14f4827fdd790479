import { expect } from "chai";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadSources } from "../../../../compiler/cli/sources.js";
import { goGlob } from "../../../../runtime/goGlob.js";

describe("loadSources: policy and data files as opa test and opa eval -d load them", () => {
  let dir: string;
  const file = (rel: string, text: string) => {
    const full = join(dir, rel);
    mkdirSync(join(full, ".."), { recursive: true });
    writeFileSync(full, text);
  };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "regoc-load-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("loads .rego modules and merges .json/.yaml data at their directory's path", () => {
    file("a.rego", "package a");
    file("sub/b.rego", "package b");
    file("data.json", '{"top": {"x": 1}}');
    file("top/more.yaml", "more: 2\n");
    file("roles/admin/grants.yml", "- read\n- write\n");
    file("notes.txt", "ignored");
    const out = loadSources([dir]);
    expect(Object.keys(out.modules).sort()).to.deep.equal([join(dir, "a.rego"), join(dir, "sub/b.rego")]);
    expect(out.data).to.deep.equal({ top: { x: 1, more: 2 }, roles: { admin: ["read", "write"] } });
  });

  it("a single file argument is loaded at the root", () => {
    file("d.json", '{"k": true}');
    expect(loadSources([join(dir, "d.json")]).data).to.deep.equal({ k: true });
  });

  it("keeps __proto__ keys as data, polluting nothing", () => {
    file("data.json", '{"__proto__": {"polluted": true}}');
    const out = loadSources([dir]);
    expect(Object.hasOwn(out.data, "__proto__")).to.equal(true);
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
  });

  it("skips node_modules, hidden directories and symbolic links to directories", () => {
    file("node_modules/x/data.json", '{"bad": 1}');
    file(".git/config.json", '{"bad": 2}');
    file("ok.rego", "package ok");
    mkdirSync(join(dir, "loop"));
    symlinkSync(dir, join(dir, "loop", "again"));
    const out = loadSources([dir]);
    expect(out.data).to.deep.equal({});
    expect(Object.keys(out.modules)).to.deep.equal([join(dir, "ok.rego")]);
  });

  // OPA's loader (v1/loader) wraps a file's value in one object per directory segment below the
  // argument (makeDir) and merges that into data; YAML is converted to JSON first, so an empty
  // document is null. Only at the root must the value be an object.
  it("an empty YAML file, or a null document, is null at its directory's path", () => {
    file("x/data.yaml", "");
    file("y/data.json", "null");
    file("z/w/data.yml", "# only a comment\n");
    expect(loadSources([dir]).data).to.deep.equal({ x: null, y: null, z: { w: null } });
  });

  it("a data file that is not an object is the value at its directory's path", () => {
    file("x/data.json", "[1,2]");
    file("s/data.yaml", "hello\n");
    expect(loadSources([dir]).data).to.deep.equal({ x: [1, 2], s: "hello" });
  });

  it("keeps numbers exact and reads YAML 1.1 as go-yaml does", () => {
    file("n/data.json", '{"big": 12345678901234567890}');
    file("y/data.yaml", "flag: yes\n");
    const data = loadSources([dir]).data as { n: { big: unknown }; y: { flag: unknown } };
    expect(String(data.n.big)).to.equal("12345678901234567890");
    expect(data.y.flag).to.equal(true);
  });

  // opa test/eval --ignore: loader.GlobExcludeName(pattern, 1) — filepath.Match on the base name
  // of every file and directory below an argument (not the argument itself).
  it("--ignore patterns skip files and directories by name below the arguments", () => {
    file("a.rego", "package a");
    file("bad.yaml", "a: [1");
    file("vendor/v.rego", "package v");
    file("sub/keep.json", '{"k": 1}');
    file("sub/x_test.rego", "package x");
    const out = loadSources([dir], { ignore: ["*.yaml", "vendor", "*_test.rego"] });
    expect(Object.keys(out.modules)).to.deep.equal([join(dir, "a.rego")]);
    expect(out.data).to.deep.equal({ sub: { k: 1 } });
    // the argument itself is never ignored
    expect(Object.keys(loadSources([join(dir, "vendor")], { ignore: ["vendor"] }).modules)).to.deep.equal([join(dir, "vendor/v.rego")]);
  });

  it("reads --ignore patterns as Go's filepath.Match does", () => {
    const m = (p: string, name: string) => goGlob(p)?.test(name) ?? "bad";
    expect([m("*.yaml", "a.yaml"), m("*.yaml", "a.yml"), m("?.rego", "ab.rego"), m("[a-c]x", "bx"), m("[^a-c]x", "bx"), m("a\\*", "a*")]).to.deep.equal([true, false, false, true, false, true]);
    expect([m("[", "x"), m("[]a]", "a"), m("[a-]", "a"), m("x\\", "x")]).to.deep.equal(["bad", "bad", "bad", "bad"]);
  });

  const errors: [string, () => void, string, RegExp][] = [
    ["a null next to a value at the same path", () => (file("x/a.yaml", ""), file("x/b.json", "1")), "rego_compile_error", /data\.x is defined by more than one file/],
    ["an empty JSON file (not JSON)", () => file("x/data.json", ""), "rego_parse_error", /data\.json/],
    ["conflicting documents", () => (file("a.json", '{"k": 1}'), file("b.json", '{"k": 2}')), "rego_compile_error", /data\.k is defined by more than one file/],
    ["a root document that is not an object", () => file("a.json", "[1]"), "rego_compile_error", /document must be of type object/],
    ["bad JSON", () => file("a.json", "{"), "rego_parse_error", /a\.json/],
    ["bad YAML", () => file("a.yaml", "a: [1"), "rego_parse_error", /a\.yaml/],
  ];
  for (const [note, setup, code, message] of errors) {
    it(`${note} is a load error`, () => {
      setup();
      let err: { code?: string; message?: string } | undefined;
      try {
        loadSources([dir]);
      } catch (e) {
        err = e as { code?: string; message?: string };
      }
      expect(err?.code).to.equal(code);
      expect(err?.message).to.match(message);
    });
  }

  it("a missing path is a usage error", () => {
    let code: string | undefined;
    try {
      loadSources([join(dir, "nope")]);
    } catch (e) {
      code = (e as { code?: string }).code;
    }
    expect(code).to.equal("cli_usage_error");
  });
});
