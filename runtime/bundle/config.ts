// OPA's bundle configuration, the subset a remote bundle needs:
//
//   services:
//     acme: { url: https://bundles.example.com, credentials: { bearer: { token: "${TOKEN}" } } }
//   bundles:
//     authz: { service: acme, resource: bundles/authz.tar.gz, polling: { min_delay_seconds: 60, max_delay_seconds: 120 } }
//     users: { service: acme, persist: true, trigger: manual, polling: { long_polling_timeout_seconds: 60 } }
//   keys: { global: { algorithm: RS256, key: <PEM> } }          (signed bundles: `signing` on a bundle)
//   persistence_directory: /var/lib/app/opa                     (default .opa, as OPA)
//
// Accepted as a JS object or as YAML/JSON text. `${VAR}` placeholders in any string are replaced
// from the environment; an unset variable is an error (OPA would substitute "" and send an empty
// token, which only shows up later as a 401). Every validation error names the field.
import { parse as parseYaml } from "yaml";
import { configFieldError, configSyntaxError } from "./errors.js";

export interface KeyConfig {
  /** A PEM public key or certificate (RS*, PS*, ES*, EdDSA) or the shared secret (HS*). */
  key: string;
  algorithm: string;
  scope: string;
}

export interface VerificationConfig {
  /** The configured keys by id (the config's top-level `keys`). */
  keys: Record<string, KeyConfig>;
  /** The bundle's `signing.keyid`: when set, a bundle without signatures is refused. */
  keyId: string;
  scope: string;
  /** `signing.exclude_files`: globs (Go's filepath.Match) of files not checked. */
  excludeFiles: string[];
}

export interface BearerCredentials {
  token: string;
  /** The Authorization scheme (OPA's default: "Bearer"). */
  scheme: string;
}

export interface ServiceConfig {
  name: string;
  url: string;
  headers: Record<string, string>;
  bearer?: BearerCredentials;
  /** Time allowed for the server's response headers and body (OPA: response_header_timeout_seconds, default 10). */
  timeoutSeconds: number;
}

export interface PollingConfig {
  minDelaySeconds: number;
  maxDelaySeconds: number;
  /** `long_polling_timeout_seconds`: ask the server to hold the request until a change (OPA's `Prefer: wait=N`). */
  longPollingTimeoutSeconds?: number;
}

export interface BundleSourceConfig {
  name: string;
  service: ServiceConfig;
  /** Path under the service URL (OPA's default: "bundles/<name>"). */
  resource: string;
  polling: PollingConfig;
  /** `signing`: how the bundle's signature is verified (absent: a signed bundle is refused). */
  signing?: VerificationConfig;
  /** `persist`: the last good archive is kept on disk and used at start when the server cannot be reached. */
  persist: boolean;
  /** `trigger`: "periodic" polls on the delays; "manual" only when `client.trigger()` is called. */
  trigger: "periodic" | "manual";
}

export interface BundlesConfig {
  /** The bundles, in the config's order. Their manifest roots must not overlap (checked at activation). */
  bundles: BundleSourceConfig[];
  /** `persistence_directory`: where persisted bundles go (`<dir>/bundles/<name>/bundle.tar.gz`). */
  persistenceDirectory: string;
  /** `labels`: added to the instance's `id` and `version` labels in decision logs and status. */
  labels: Record<string, string>;
  /** `decision_logs`: absent when neither a service nor the console is configured. */
  decisionLogs?: DecisionLogsConfig;
  /** `status`: absent when neither a service nor the console is configured. */
  status?: StatusConfig;
}

export interface DecisionLogsConfig {
  /** Where the gzip JSON batches are POSTed (absent: no upload). */
  service?: ServiceConfig;
  /** `resource` (default "/logs", "/logs/<partition_name>" with a partition). */
  resource: string;
  /** `console`: each event is also printed as one JSON line. */
  console: boolean;
  /** `mask_decision` / `drop_decision` as "system/log/mask" (rule paths in the bundles). */
  maskDecision: string;
  dropDecision: string;
  reporting: {
    /** "size": bounded by bufferSizeLimitBytes (0: unbounded, OPA's default); "event": by bufferSizeLimitEvents. */
    bufferType: "size" | "event";
    bufferSizeLimitBytes: number;
    bufferSizeLimitEvents: number;
    /** Largest gzip body of one upload. */
    uploadSizeLimitBytes: number;
    minDelaySeconds: number;
    maxDelaySeconds: number;
    /** "manual": uploads only when `client.flushLogs()` is called. */
    trigger: "periodic" | "manual";
  };
}

export interface StatusConfig {
  /** Where each status update is POSTed as JSON (absent: no upload). */
  service?: ServiceConfig;
  /** "/status", or "/status/<partition_name>". */
  resource: string;
  console: boolean;
}

// OPA's defaults (plugins/bundle and plugins/rest).
const DEFAULT_MIN_DELAY = 60;
const DEFAULT_MAX_DELAY = 120;
const DEFAULT_TIMEOUT = 10;

/** Parses and validates the configuration. */
export function parseBundleConfig(raw: unknown, env: Record<string, string | undefined> = globalThis.process?.env ?? {}): BundlesConfig {
  const config = typeof raw === "string" ? parseText(raw) : raw;
  const resolved = substituteEnv(config, "", env);
  const root = object(resolved, "config");
  const services = parseServices(root["services"]);
  const keys = root["keys"] === undefined ? {} : parseKeys(object(root["keys"], "keys"));
  const bundles = object(root["bundles"], "bundles");
  const names = Object.keys(bundles);
  if (names.length === 0) fail("bundles", "must name at least one bundle");
  const dir = root["persistence_directory"] === undefined ? ".opa" : string(root["persistence_directory"], "persistence_directory");
  const out: BundlesConfig = { bundles: names.map((name) => parseBundle(name, bundles[name], services, keys)), persistenceDirectory: dir, labels: parseLabels(root["labels"]) };
  const logs = root["decision_logs"] === undefined || root["decision_logs"] === null ? undefined : parseDecisionLogs(object(root["decision_logs"], "decision_logs"), services);
  if (logs) out.decisionLogs = logs;
  const status = root["status"] === undefined || root["status"] === null ? undefined : parseStatus(object(root["status"], "status"), services);
  if (status) out.status = status;
  return out;
}

function parseLabels(raw: unknown): Record<string, string> {
  if (raw === undefined || raw === null) return {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(object(raw, "labels"))) {
    if (k === "id" || k === "version") fail(`labels.${k}`, "is set by the client (the `id` option and regoc's version)");
    out[k] = string(v, `labels.${k}`);
  }
  return out;
}

function knownKeys(o: Record<string, unknown>, field: string, keys: readonly string[]): void {
  for (const k of Object.keys(o)) if (!keys.includes(k)) fail(`${field}.${k}`, `is not supported (one of ${keys.join(", ")})`);
}

/** The plugin's service: named, or (as OPA) the first service when neither a service nor the console is named. */
function pluginService(o: Record<string, unknown>, field: string, services: Map<string, ServiceConfig>, console: boolean): ServiceConfig | undefined {
  if (o["service"] === undefined) return console ? undefined : services.values().next().value;
  const name = string(o["service"], `${field}.service`);
  const service = services.get(name);
  if (!service) fail(`${field}.service`, `names an unknown service ${JSON.stringify(name)}`);
  return service;
}

function boolean(v: unknown, field: string, fallback: boolean): boolean {
  if (v === undefined) return fallback;
  if (typeof v !== "boolean") fail(field, `must be true or false, got ${describe(v)}`);
  return v;
}

/** "/system/log/mask" or "system/log/mask" → "system/log/mask" (identifier segments: it becomes a rule ref). */
function rulePathOf(v: unknown, field: string, fallback: string): string {
  if (v === undefined) return fallback;
  const segs = string(v, field).replace(/^\/+|\/+$/g, "").split("/");
  if (!segs.every((x) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(x))) fail(field, `must be a rule path such as "/system/log/mask", got ${describe(v)}`);
  return segs.join("/");
}

function parseDecisionLogs(o: Record<string, unknown>, services: Map<string, ServiceConfig>): DecisionLogsConfig | undefined {
  const field = "decision_logs";
  knownKeys(o, field, ["service", "resource", "partition_name", "console", "mask_decision", "drop_decision", "reporting"]);
  const console = boolean(o["console"], `${field}.console`, false);
  const service = pluginService(o, field, services, console);
  if (!service && !console) return undefined;
  const r = o["reporting"] === undefined ? {} : object(o["reporting"], `${field}.reporting`);
  const rf = `${field}.reporting`;
  knownKeys(r, rf, ["buffer_type", "buffer_size_limit_bytes", "buffer_size_limit_events", "upload_size_limit_bytes", "min_delay_seconds", "max_delay_seconds", "trigger"]);
  const bufferType = r["buffer_type"] === undefined ? "size" : r["buffer_type"];
  if (bufferType !== "size" && bufferType !== "event") fail(`${rf}.buffer_type`, `must be "size" or "event", got ${describe(bufferType)}`);
  if (bufferType === "event" && r["buffer_size_limit_bytes"] !== undefined) fail(`${rf}.buffer_size_limit_bytes`, "is not supported for the event buffer type");
  if (bufferType === "size" && r["buffer_size_limit_events"] !== undefined) fail(`${rf}.buffer_size_limit_events`, "is not supported for the size buffer type");
  if ((r["min_delay_seconds"] === undefined) !== (r["max_delay_seconds"] === undefined)) {
    fail(rf, "min_delay_seconds and max_delay_seconds are given together");
  }
  const min = r["min_delay_seconds"] === undefined ? 300 : positive(r["min_delay_seconds"], `${rf}.min_delay_seconds`);
  const max = r["max_delay_seconds"] === undefined ? 600 : positive(r["max_delay_seconds"], `${rf}.max_delay_seconds`);
  if (max < min) fail(`${rf}.max_delay_seconds`, `must be at least min_delay_seconds (${min}), got ${max}`);
  const trigger = r["trigger"] === undefined ? "periodic" : r["trigger"];
  if (trigger !== "periodic" && trigger !== "manual") fail(`${rf}.trigger`, `must be "periodic" or "manual", got ${describe(trigger)}`);
  const partition = o["partition_name"] === undefined ? undefined : string(o["partition_name"], `${field}.partition_name`);
  const resource = partition !== undefined ? `/logs/${partition}` : o["resource"] === undefined ? "/logs" : string(o["resource"], `${field}.resource`);
  const out: DecisionLogsConfig = {
    resource,
    console,
    maskDecision: rulePathOf(o["mask_decision"], `${field}.mask_decision`, "system/log/mask"),
    dropDecision: rulePathOf(o["drop_decision"], `${field}.drop_decision`, "system/log/drop"),
    reporting: {
      bufferType,
      bufferSizeLimitBytes: r["buffer_size_limit_bytes"] === undefined ? 0 : Math.floor(positive(r["buffer_size_limit_bytes"], `${rf}.buffer_size_limit_bytes`)),
      bufferSizeLimitEvents: r["buffer_size_limit_events"] === undefined ? 10_000 : Math.floor(positive(r["buffer_size_limit_events"], `${rf}.buffer_size_limit_events`)),
      uploadSizeLimitBytes: r["upload_size_limit_bytes"] === undefined ? 32_768 : Math.floor(positive(r["upload_size_limit_bytes"], `${rf}.upload_size_limit_bytes`)),
      minDelaySeconds: min,
      maxDelaySeconds: max,
      trigger,
    },
  };
  if (service) out.service = service;
  return out;
}

function parseStatus(o: Record<string, unknown>, services: Map<string, ServiceConfig>): StatusConfig | undefined {
  knownKeys(o, "status", ["service", "partition_name", "console"]);
  const console = boolean(o["console"], "status.console", false);
  const service = pluginService(o, "status", services, console);
  if (!service && !console) return undefined;
  const partition = o["partition_name"] === undefined ? undefined : string(o["partition_name"], "status.partition_name");
  const out: StatusConfig = { resource: partition === undefined ? "/status" : `/status/${partition}`, console };
  if (service) out.service = service;
  return out;
}

function parseText(text: string): unknown {
  try {
    return parseYaml(text);
  } catch (e) {
    throw configSyntaxError(e);
  }
}

function parseServices(raw: unknown): Map<string, ServiceConfig> {
  // OPA accepts a map keyed by name or a list of objects with a `name`.
  const entries: [string, unknown, string][] = [];
  if (Array.isArray(raw)) {
    raw.forEach((s, i) => entries.push([String(object(s, `services[${i}]`)["name"] ?? ""), s, `services[${i}]`]));
  } else {
    for (const [k, v] of Object.entries(object(raw, "services"))) entries.push([k, v, `services.${k}`]);
  }
  const out = new Map<string, ServiceConfig>();
  for (const [name, s, field] of entries) {
    if (name === "") fail(`${field}.name`, "is required");
    out.set(name, parseService(name, object(s, field), field));
  }
  return out;
}

function parseService(name: string, s: Record<string, unknown>, field: string): ServiceConfig {
  const url = string(s["url"], `${field}.url`);
  if (!/^https?:\/\//.test(url)) fail(`${field}.url`, `must be an http:// or https:// URL, got ${JSON.stringify(url)}`);
  const headers: Record<string, string> = {};
  if (s["headers"] !== undefined) {
    for (const [k, v] of Object.entries(object(s["headers"], `${field}.headers`))) headers[k] = string(v, `${field}.headers.${k}`);
  }
  const timeout = s["response_header_timeout_seconds"];
  const service: ServiceConfig = {
    name,
    url: url.replace(/\/+$/, ""),
    headers,
    timeoutSeconds: timeout === undefined ? DEFAULT_TIMEOUT : positive(timeout, `${field}.response_header_timeout_seconds`),
  };
  const credentials = s["credentials"];
  if (credentials !== undefined) {
    const c = object(credentials, `${field}.credentials`);
    for (const k of Object.keys(c)) {
      if (k !== "bearer") fail(`${field}.credentials.${k}`, "is not supported (only bearer)");
    }
    const b = object(c["bearer"], `${field}.credentials.bearer`);
    const scheme = b["scheme"] === undefined ? "Bearer" : string(b["scheme"], `${field}.credentials.bearer.scheme`);
    service.bearer = { token: string(b["token"], `${field}.credentials.bearer.token`), scheme };
  }
  return service;
}

/** The JWS algorithms OPA accepts for bundle signatures. */
export const SIGNING_ALGORITHMS = ["HS256", "HS384", "HS512", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"];

/** `keys: {id: {key, algorithm (default RS256), scope}}`: the verification keys by id. */
function parseKeys(raw: Record<string, unknown>): Record<string, KeyConfig> {
  const keys: Record<string, KeyConfig> = Object.create(null) as Record<string, KeyConfig>;
  for (const [id, k] of Object.entries(raw)) {
    const field = `keys.${id}`;
    const o = object(k, field);
    const algorithm = o["algorithm"] === undefined ? "RS256" : string(o["algorithm"], `${field}.algorithm`);
    if (!SIGNING_ALGORITHMS.includes(algorithm)) fail(`${field}.algorithm`, `unknown signature algorithm ${JSON.stringify(algorithm)} (one of ${SIGNING_ALGORITHMS.join(", ")})`);
    const scope = o["scope"] === undefined ? "" : string(o["scope"], `${field}.scope`);
    keys[id] = { key: string(o["key"], `${field}.key`), algorithm, scope };
  }
  return keys;
}

/** `signing: {keyid, scope, exclude_files}` of a bundle. */
function parseSigning(raw: unknown, field: string, keys: Record<string, KeyConfig>): VerificationConfig {
  const o = object(raw, field);
  for (const k of Object.keys(o)) {
    if (k !== "keyid" && k !== "scope" && k !== "exclude_files") fail(`${field}.${k}`, "is not a signing option (keyid, scope, exclude_files)");
  }
  const keyId = o["keyid"] === undefined ? "" : string(o["keyid"], `${field}.keyid`);
  if (keyId !== "" && !Object.hasOwn(keys, keyId)) fail(`${field}.keyid`, `key id ${keyId} not found in keys`);
  const scope = o["scope"] === undefined ? "" : string(o["scope"], `${field}.scope`);
  const exclude = o["exclude_files"] ?? [];
  if (!Array.isArray(exclude) || !exclude.every((e) => typeof e === "string")) fail(`${field}.exclude_files`, "must be a list of file globs");
  return { keys, keyId, scope, excludeFiles: exclude as string[] };
}

function parseBundle(name: string, raw: unknown, services: Map<string, ServiceConfig>, keys: Record<string, KeyConfig>): BundleSourceConfig {
  const field = `bundles.${name}`;
  const b = object(raw, field);
  const serviceName = string(b["service"], `${field}.service`);
  const service = services.get(serviceName);
  if (!service) fail(`${field}.service`, `names an unknown service ${JSON.stringify(serviceName)}`);
  const resource = b["resource"] === undefined ? `bundles/${name}` : string(b["resource"], `${field}.resource`);
  const p = b["polling"] === undefined ? {} : object(b["polling"], `${field}.polling`);
  const min = p["min_delay_seconds"] === undefined ? DEFAULT_MIN_DELAY : positive(p["min_delay_seconds"], `${field}.polling.min_delay_seconds`);
  const max = p["max_delay_seconds"] === undefined ? Math.max(min, DEFAULT_MAX_DELAY) : positive(p["max_delay_seconds"], `${field}.polling.max_delay_seconds`);
  if (max < min) fail(`${field}.polling.max_delay_seconds`, `must be at least min_delay_seconds (${min}), got ${max}`);
  const polling: PollingConfig = { minDelaySeconds: min, maxDelaySeconds: max };
  if (p["long_polling_timeout_seconds"] !== undefined) polling.longPollingTimeoutSeconds = positive(p["long_polling_timeout_seconds"], `${field}.polling.long_polling_timeout_seconds`);
  const persist = b["persist"] === undefined ? false : b["persist"];
  if (typeof persist !== "boolean") fail(`${field}.persist`, `must be true or false, got ${describe(persist)}`);
  const trigger = b["trigger"] === undefined ? "periodic" : b["trigger"];
  if (trigger !== "periodic" && trigger !== "manual") fail(`${field}.trigger`, `must be "periodic" or "manual", got ${describe(trigger)}`);
  const config: BundleSourceConfig = { name, service, resource: resource.replace(/^\/+/, ""), polling, persist, trigger };
  if (b["signing"] !== undefined && b["signing"] !== null) config.signing = parseSigning(b["signing"], `${field}.signing`, keys);
  return config;
}

/** Replaces `${VAR}` in every string of the config (keys are left alone). */
function substituteEnv(v: unknown, field: string, env: Record<string, string | undefined>): unknown {
  if (typeof v === "string") {
    return v.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_m, name: string) => {
      const value = env[name];
      if (value === undefined) fail(field || "config", `environment variable ${name} is not set`);
      return value;
    });
  }
  if (Array.isArray(v)) return v.map((x, i) => substituteEnv(x, `${field}[${i}]`, env));
  if (typeof v === "object" && v !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = substituteEnv(x, field ? `${field}.${k}` : k, env);
    return out;
  }
  return v;
}

function object(v: unknown, field: string): Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) fail(field, `must be an object, got ${describe(v)}`);
  return v as Record<string, unknown>;
}

function string(v: unknown, field: string): string {
  if (typeof v !== "string" || v === "") fail(field, `must be a non-empty string, got ${describe(v)}`);
  return v;
}

/** Node's longest timer, in seconds: a longer one fires at once (a delay above it polled in a tight loop). */
export const MAX_TIMER_SECONDS = Math.floor(0x7fffffff / 1000);

function positive(v: unknown, field: string): number {
  // Fractions are allowed (OPA takes whole seconds): short delays keep tests and demos fast.
  if (typeof v !== "number" || !Number.isFinite(v) || v <= 0) fail(field, `must be a positive number, got ${describe(v)}`);
  if (v > MAX_TIMER_SECONDS) fail(field, `must be at most ${MAX_TIMER_SECONDS} seconds (about 24 days), got ${v} (for no polling, use trigger: manual)`);
  return v;
}

function describe(v: unknown): string {
  return v === undefined ? "nothing" : Array.isArray(v) ? "an array" : JSON.stringify(v) ?? typeof v;
}

function fail(field: string, message: string): never {
  throw configFieldError(field, message);
}
