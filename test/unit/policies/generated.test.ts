// generated/ must be exactly what `npm run compile-policies` produces from policies/ now: the
// committed files are compared with fresh output, file by file, and none is missing or extra.
import { expect } from "chai";
import { readdirSync, readFileSync } from "node:fs";
import { generatePolicies } from "../../../scripts/compile-policies.js";
import * as api from "../../../generated/api.js";
import * as authz from "../../../generated/authz.js";
import type { ApiData, ApiInput } from "../../../generated/api.js";
import type { AuthzData, AuthzInput } from "../../../generated/authz.js";

const committed = (file: string) => readFileSync(new URL(`../../../${file}`, import.meta.url), "utf8");

describe("generated/ is fresh", () => {
  const expected = generatePolicies();

  it("generated/ holds exactly the files the compiler produces now", () => {
    const onDisk = readdirSync(new URL("../../../generated/", import.meta.url)).map((f) => `generated/${f}`);
    expect(onDisk.sort()).to.deep.equal(Object.keys(expected).sort());
  });

  for (const file of Object.keys(expected)) {
    it(`${file} is what the compiler produces now (else: npm run compile-policies)`, () => {
      expect(committed(file) === expected[file], `${file} is stale: run npm run compile-policies`).to.equal(true);
    });
  }

  it("each committed module exports its typed decision function and its entrypoint table", () => {
    // The type imports above fail the type-check if a module stops exporting its input/data types.
    const authzInput: AuthzInput = { user: { id: "bob" }, resource: { owner_id: "bob" } };
    const authzData: AuthzData = {};
    const apiInput: ApiInput = {};
    const apiData: ApiData = {};
    expect(authz.authzAllow(authzInput, authzData)).to.equal(true);
    expect(authz.authzAllow({}, authzData)).to.equal(false);
    expect(api.apiAllow(apiInput, apiData)).to.equal(false);
    expect(Object.keys(authz.entrypoints)).to.deep.equal(["authz/allow"]);
    expect(Object.keys(api.entrypoints)).to.deep.equal(["api/allow"]);
    expect(committed("generated/authz.ts")).to.match(/^\/\/ GENERATED FILE — do not edit\./);
  });
});
