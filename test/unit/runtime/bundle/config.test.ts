import { expect } from "chai";
import { parseBundleConfig } from "../../../../runtime/bundle/config.js";
import { thrown } from "../../../support/errors.js";

const YAML = `
services:
  acme:
    url: https://bundles.example.com/
    credentials:
      bearer:
        token: "\${TOKEN}"
bundles:
  authz:
    service: acme
    polling:
      min_delay_seconds: 5
      max_delay_seconds: 10
`;

describe("bundle config (OPA's services/bundles shape)", () => {
  it("reads YAML text, resolves ${ENV}, applies OPA's defaults", () => {
    const [c, ...rest] = parseBundleConfig(YAML, { TOKEN: "t0k" }).bundles;
    expect(rest).to.deep.equal([]);
    expect(c!.name).to.equal("authz");
    expect(c!.resource).to.equal("bundles/authz");
    expect(c!.service.url).to.equal("https://bundles.example.com");
    expect(c!.service.bearer).to.deep.equal({ token: "t0k", scheme: "Bearer" });
    expect(c!.service.timeoutSeconds).to.equal(10);
    expect(c!.polling).to.deep.equal({ minDelaySeconds: 5, maxDelaySeconds: 10 });
  });

  it("accepts services as a list with names, and OPA's polling defaults", () => {
    const c = parseBundleConfig({ services: [{ name: "s", url: "http://h" }], bundles: { b: { service: "s", resource: "/x.tar.gz" } } }).bundles[0]!;
    expect(c!.resource).to.equal("x.tar.gz");
    expect(c!.polling).to.deep.equal({ minDelaySeconds: 60, maxDelaySeconds: 120 });
  });

  it("several bundles in the config's order, with persist, trigger, long polling and the persistence directory", () => {
    const c = parseBundleConfig({
      services: { s: { url: "http://h" } },
      persistence_directory: "/var/lib/x",
      bundles: { b: { service: "s" }, a: { service: "s", persist: true, trigger: "manual", polling: { long_polling_timeout_seconds: 30 } } },
    });
    expect(c.persistenceDirectory).to.equal("/var/lib/x");
    expect(c.bundles.map((b) => [b.name, b.persist, b.trigger, b.polling.longPollingTimeoutSeconds])).to.deep.equal([
      ["b", false, "periodic", undefined],
      ["a", true, "manual", 30],
    ]);
    expect(parseBundleConfig({ services: { s: { url: "http://h" } }, bundles: { b: { service: "s" } } }).persistenceDirectory).to.equal(".opa");
  });

  const errors: { note: string; config: unknown; message: string }[] = [
    { note: "unset env var", config: YAML, message: "services.acme.credentials.bearer.token: environment variable TOKEN is not set" },
    { note: "no services", config: { bundles: { b: { service: "s" } } }, message: "services: must be an object" },
    { note: "unknown service", config: { services: { s: { url: "http://h" } }, bundles: { b: { service: "t" } } }, message: "bundles.b.service: names an unknown service \"t\"" },
    { note: "bad url", config: { services: { s: { url: "ftp://h" } }, bundles: { b: { service: "s" } } }, message: "services.s.url: must be an http:// or https:// URL" },
    { note: "no bundles", config: { services: { s: { url: "http://h" } }, bundles: {} }, message: "bundles: must name at least one bundle" },
    { note: "bad trigger", config: { services: { s: { url: "http://h" } }, bundles: { b: { service: "s", trigger: "sometimes" } } }, message: 'bundles.b.trigger: must be "periodic" or "manual"' },
    { note: "bad persist", config: { services: { s: { url: "http://h" } }, bundles: { b: { service: "s", persist: "yes" } } }, message: "bundles.b.persist: must be true or false" },
    {
      note: "max below min",
      config: { services: { s: { url: "http://h" } }, bundles: { b: { service: "s", polling: { min_delay_seconds: 10, max_delay_seconds: 5 } } } },
      message: "bundles.b.polling.max_delay_seconds: must be at least min_delay_seconds (10), got 5",
    },
    { note: "negative delay", config: { services: { s: { url: "http://h" } }, bundles: { b: { service: "s", polling: { min_delay_seconds: -1 } } } }, message: "bundles.b.polling.min_delay_seconds: must be a positive number" },
    {
      note: "a delay beyond Node's longest timer (which would fire at once)",
      config: { services: { s: { url: "http://h" } }, bundles: { b: { service: "s", polling: { min_delay_seconds: 3_000_000, max_delay_seconds: 3_000_000 } } } },
      message: "bundles.b.polling.min_delay_seconds: must be at most 2147483 seconds",
    },
    { note: "a timeout beyond Node's longest timer", config: { services: { s: { url: "http://h", response_header_timeout_seconds: 1e9 } }, bundles: { b: { service: "s" } } }, message: "services.s.response_header_timeout_seconds: must be at most 2147483 seconds" },
    { note: "other credentials", config: { services: { s: { url: "http://h", credentials: { oauth2: {} } } }, bundles: { b: { service: "s" } } }, message: "services.s.credentials.oauth2: is not supported" },
    { note: "signing keyid not in keys", config: { services: { s: { url: "http://h" } }, bundles: { b: { service: "s", signing: { keyid: "k" } } } }, message: "bundles.b.signing.keyid: key id k not found in keys" },
    { note: "signing option unknown", config: { services: { s: { url: "http://h" } }, bundles: { b: { service: "s", signing: { key: "x" } } } }, message: "bundles.b.signing.key: is not a signing option" },
    { note: "key without key", config: { services: { s: { url: "http://h" } }, keys: { k: { algorithm: "HS256" } }, bundles: { b: { service: "s" } } }, message: "keys.k.key: must be a non-empty string" },
    { note: "invalid YAML", config: "services: [", message: "not valid YAML/JSON" },
  ];
  for (const tc of errors) {
    it(`${tc.note}: bundle_error naming the field`, () => {
      const e = thrown(() => parseBundleConfig(tc.config, {}));
      expect(e.code).to.equal("bundle_error");
      expect(e.message).to.contain(tc.message);
    });
  }
});
