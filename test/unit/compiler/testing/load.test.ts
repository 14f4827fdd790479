import { expect } from "chai";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadPaths } from "../../../../compiler/testing/load.js";

describe("testing: loading paths as opa test does", () => {
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
    file("top/more.yaml", "y: 2\n");
    file("roles/admin/grants.yml", "- read\n- write\n");
    file("notes.txt", "ignored");
    const out = loadPaths([dir]);
    expect(Object.keys(out.modules).sort()).to.deep.equal([join(dir, "a.rego"), join(dir, "sub/b.rego")]);
    expect(out.data).to.deep.equal({ top: { x: 1, y: 2 }, roles: { admin: ["read", "write"] } });
  });

  it("a single file argument is loaded at the root", () => {
    file("d.json", '{"k": true}');
    expect(loadPaths([join(dir, "d.json")]).data).to.deep.equal({ k: true });
  });

  it("keeps __proto__ keys as data, polluting nothing", () => {
    file("data.json", '{"__proto__": {"polluted": true}}');
    const out = loadPaths([dir]);
    expect(Object.hasOwn(out.data, "__proto__")).to.equal(true);
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
  });

  it("skips node_modules, hidden directories and symbolic links to directories", () => {
    file("node_modules/x/data.json", '{"bad": 1}');
    file(".git/config.json", '{"bad": 2}');
    file("ok.rego", "package ok");
    mkdirSync(join(dir, "loop"));
    symlinkSync(dir, join(dir, "loop", "again"));
    const out = loadPaths([dir]);
    expect(out.data).to.deep.equal({});
    expect(Object.keys(out.modules)).to.deep.equal([join(dir, "ok.rego")]);
  });

  const errors: [string, () => void, string, RegExp][] = [
    ["conflicting documents", () => (file("a.json", '{"k": 1}'), file("b.json", '{"k": 2}')), "rego_compile_error", /data\.k is defined by more than one file/],
    ["a root document that is not an object", () => file("a.json", "[1]"), "rego_compile_error", /must hold an object/],
    ["bad JSON", () => file("a.json", "{"), "rego_parse_error", /a\.json/],
    ["bad YAML", () => file("a.yaml", "a: [1"), "rego_parse_error", /a\.yaml/],
  ];
  for (const [note, setup, code, message] of errors) {
    it(`${note} is a load error`, () => {
      setup();
      let err: { code?: string; message?: string } | undefined;
      try {
        loadPaths([dir]);
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
      loadPaths([join(dir, "nope")]);
    } catch (e) {
      code = (e as { code?: string }).code;
    }
    expect(code).to.equal("cli_usage_error");
  });
});
