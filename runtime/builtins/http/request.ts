// Pieces of http.send's request and response handling: the check of the request object's keys
// (providers.aws.sign_req makes the same), the error for a request that cannot be made, the tls_*
// options (PEM text, files, environment variables; OPA's literal "\n" in tls_ca_cert), and the
// decoding of response bodies (JSON for application/json and application/*+json or
// force_json_decode, YAML for application/yaml or force_yaml_decode — JSON text first, as OPA's
// util.Unmarshal does, else yaml.unmarshal's go-yaml rules; a body that does not decode is null).
import type { RegoErrorCode } from "../../errors.js";
import { objectGet, objectKeys, type ObjectValue } from "../../value/object.js";
import { RegoSet } from "../../value/set.js";
import type { Value } from "../../value/value.js";
import { operandError } from "../args.js";
import { nodeModule } from "../node.js";
import { isValidJson, unmarshal } from "../go/json.js";
import { fromUtf8 } from "../go/strconv.js";
import type { TlsOptions, WireResponse } from "./transport.js";
import { termString } from "../termString.js";
import { yamlUnmarshal } from "../yaml.js";

/** The request object's keys OPA knows. */
const ALLOWED = new Set([
  "method", "url", "body", "enable_redirect", "force_json_decode", "force_yaml_decode", "headers", "raw_body",
  "tls_use_system_certs", "tls_ca_cert", "tls_ca_cert_file", "tls_ca_cert_env_variable", "tls_client_cert",
  "tls_client_cert_file", "tls_client_cert_env_variable", "tls_client_key", "tls_client_key_file",
  "tls_client_key_env_variable", "tls_insecure_skip_verify", "tls_server_name", "timeout", "cache", "force_cache",
  "force_cache_duration_seconds", "raise_error", "caching_mode", "max_retry_attempts", "cache_ignored_headers",
]);

/** OPA's validateHTTPRequestOperand: only known keys, method and url present (operand `pos`). */
export function validateRequestKeys(req: ObjectValue, pos = 1): void {
  const invalid = objectKeys(req).filter((k) => typeof k !== "string" || !ALLOWED.has(k));
  if (invalid.length > 0) throw operandError(pos, `invalid request parameters(s): ${termString(new RegoSet(invalid))}`);
  const missing = ["method", "url"].filter((k) => objectGet(req, k) === undefined);
  if (missing.length > 0) throw operandError(pos, `missing required request parameters(s): ${termString(new RegoSet(missing))}`);
}

/** A request that cannot be made; OPA reports it as a builtin (or operand type) error. */
export class RequestError extends Error {
  constructor(
    message: string,
    readonly code: RegoErrorCode = "eval_builtin_error",
  ) {
    super(message);
  }
}

type FS = typeof import("node:fs/promises");
type Crypto = typeof import("node:crypto");

async function nodeModules(): Promise<{ fs: FS; crypto: Crypto; tls: typeof import("node:tls") }> {
  try {
    return { fs: nodeModule<FS>("fs/promises"), crypto: nodeModule<Crypto>("crypto"), tls: nodeModule<typeof import("node:tls")>("tls") };
  } catch {
    throw new RequestError("tls_* options need Node.js");
  }
}

async function readFile(fs: FS, path: string): Promise<string> {
  try {
    return await fs.readFile(path, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new RequestError(`open ${path}: ${code === "ENOENT" ? "no such file or directory" : (e as Error).message}`);
  }
}

const PEM_CERT = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

function certificates(crypto: Crypto, pem: string): string[] {
  const out: string[] = [];
  for (const block of pem.match(PEM_CERT) ?? []) {
    try {
      new crypto.X509Certificate(block);
      out.push(block);
    } catch {
      // skipped, as Go's AppendCertsFromPEM skips blocks it cannot parse
    }
  }
  return out;
}

/**
 * The TLS options of a request, or undefined when it sets none. `params` holds the tls_* keys;
 * a Host header also names the TLS server, as in OPA.
 */
export async function loadTls(
  params: Map<string, Value>,
  hostHeader: string | undefined,
  parseBool: (v: Value) => boolean,
): Promise<TlsOptions | undefined> {
  if (params.size === 0 && hostHeader === undefined) return undefined;
  const str = (k: string) => {
    const v = params.get(k);
    return typeof v === "string" ? v.replace(/^"+|"+$/g, "") : "";
  };
  const out: TlsOptions = {};
  if (params.has("tls_insecure_skip_verify") && parseBool(params.get("tls_insecure_skip_verify")!)) out.rejectUnauthorized = false;
  const needsNode = [...params.keys()].some((k) => k !== "tls_insecure_skip_verify" && k !== "tls_server_name" && k !== "tls_use_system_certs");
  if (needsNode) {
    const { fs, crypto, tls } = await nodeModules();
    const env = (name: string) => (typeof process === "object" ? (process.env[name] ?? "") : "");
    const pair = async (cert: string, key: string, what: string) => {
      if (cert === "" || key === "") return;
      try {
        crypto.createPrivateKey(key);
        new crypto.X509Certificate(cert);
      } catch (e) {
        throw new RequestError(`${what}tls: ${(e as Error).message}`);
      }
      out.cert = cert;
      out.key = key;
    };
    await pair(str("tls_client_cert"), str("tls_client_key"), "");
    if (str("tls_client_cert_file") && str("tls_client_key_file")) {
      await pair(await readFile(fs, str("tls_client_cert_file")), await readFile(fs, str("tls_client_key_file")), "");
    }
    const certEnv = str("tls_client_cert_env_variable");
    const keyEnv = str("tls_client_key_env_variable");
    if (certEnv && keyEnv) {
      await pair(env(certEnv), env(keyEnv), `cannot extract public/private key pair from envvars ${JSON.stringify(certEnv)}, ${JSON.stringify(keyEnv)}: `);
    }
    const system = params.has("tls_use_system_certs") && parseBool(params.get("tls_use_system_certs")!);
    const cas: string[] = system ? [...tls.rootCertificates] : [];
    let customCA = false;
    const addCAs = (pem: string) => {
      const found = certificates(crypto, pem);
      if (found.length === 0) throw new RequestError("could not append CA certificates from PEM bytes");
      cas.push(...found);
      customCA = true;
    };
    if (str("tls_ca_cert")) addCAs(str("tls_ca_cert").replace(/\\n/g, "\n"));
    if (str("tls_ca_cert_file")) addCAs(await readFile(fs, str("tls_ca_cert_file")));
    if (str("tls_ca_cert_env_variable")) addCAs(env(str("tls_ca_cert_env_variable")));
    if (customCA) out.ca = cas;
  }
  if (hostHeader !== undefined) out.servername = hostHeader;
  if (str("tls_server_name")) out.servername = str("tls_server_name");
  return out;
}

function contentType(res: WireResponse): string {
  return res.headers.get("content-type")?.[0] ?? "";
}

/** Go's mime.ParseMediaType check for application/json and application/*+json. */
function isJSONType(res: WireResponse): boolean {
  const media = contentType(res).split(";")[0]!.trim().toLowerCase();
  const parts = media.split("/");
  if (parts.length !== 2 || parts[0] !== "application") return false;
  return parts[1] === "json" || parts[1]!.endsWith("+json");
}

export function decodeBody(res: WireResponse, forceJson: boolean, forceYaml: boolean): Value {
  const text = fromUtf8(res.body);
  try {
    if (forceJson || isJSONType(res)) return unmarshal(text);
    const ct = contentType(res);
    if (forceYaml || ct.includes("application/yaml") || ct.includes("application/x-yaml")) {
      return isValidJson(text) ? unmarshal(text) : yamlUnmarshal(text);
    }
  } catch {
    return null;
  }
  return null;
}
