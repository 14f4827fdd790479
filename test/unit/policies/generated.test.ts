// generated/ must be exactly what `npm run compile-policies` produces from policies/ now.
import { expect } from "chai";
import { readFileSync } from "node:fs";
import { generatePolicies } from "../../../scripts/compile-policies.js";

describe("generated/ is fresh", () => {
  const expected = generatePolicies();
  for (const file of Object.keys(expected)) {
    it(`${file} is what the compiler produces now (else: npm run compile-policies)`, () => {
      const onDisk = readFileSync(new URL(`../../../${file}`, import.meta.url), "utf8");
      expect(onDisk === expected[file], `${file} is stale: run npm run compile-policies`).to.equal(true);
    });
  }

  it("each module exports its typed decision function and its types", () => {
    const authz = expected["generated/authz.ts"]!;
    const api = expected["generated/api.ts"]!;
    expect(authz).to.match(/^\/\/ GENERATED FILE — do not edit\./);
    expect(authz).to.contain("export function authzAllow(input: AuthzInput | undefined, data: AuthzData");
    expect(authz).to.match(/\): boolean \{/);
    expect(api).to.contain("export function apiAllow(input: ApiInput | undefined, data: ApiData");
    expect(api).to.match(/export type ApiInput = \{[\s\S]*"time"\?/);
    expect(authz).to.match(/export type AuthzData = \{[\s\S]*"permissions"\?/);
  });
});
