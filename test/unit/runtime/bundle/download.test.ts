// Which headers a bundle download takes along a redirect: credentials stay with the first URL's
// host (Go's rule, so OPA's) and never go over plain http after https.
import { expect } from "chai";
import { redirectHeaders } from "../../../../runtime/bundle/download.js";

const headers = { Authorization: "Bearer s3cret", Cookie: "session=s3cret", "WWW-Authenticate": "x", Cookie2: "y", "X-Tenant": "acme" };
const kept = (initial: string, from: string, to: string) => Object.keys(redirectHeaders(new URL(initial), new URL(from), new URL(to), headers));

describe("bundle download redirects", () => {
  it("keeps every header for the same host or a subdomain of it", () => {
    expect(kept("https://b.example/x", "https://b.example/x", "https://b.example/y")).to.deep.equal(Object.keys(headers));
    expect(kept("https://b.example/x", "https://b.example/x", "https://cdn.b.example/y")).to.deep.equal(Object.keys(headers));
  });

  it("drops Authorization, WWW-Authenticate, Cookie and Cookie2 for another host", () => {
    expect(kept("https://b.example/x", "https://b.example/x", "https://evil.example/y")).to.deep.equal(["X-Tenant"]);
    expect(kept("https://b.example/x", "https://b.example/x", "https://evilb.example/y")).to.deep.equal(["X-Tenant"]);
  });

  it("drops the credentials on a downgrade from https to http, even to the same host", () => {
    expect(kept("https://b.example/x", "https://b.example/x", "http://b.example/y")).to.deep.equal(["X-Tenant"]);
    expect(kept("http://b.example/x", "http://b.example/x", "http://b.example/y")).to.deep.equal(Object.keys(headers));
  });
});
