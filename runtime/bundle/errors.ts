// The bundle plugin's errors, by situation (OPA's bundle, download, signing and decision-log
// failures): bundle_error and decision_log_error, each message written here once.
import { RegoError, type RegoErrorCode } from "../errors.js";

/** Manifest roots as OPA prints them: `[a b/c]`. */
export function formatRoots(roots: readonly string[]): string {
  return `[${roots.join(" ")}]`;
}

// --- the manifest's roots

export function overlappedRootsError(a: string, b: string): RegoError {
  return new RegoError("bundle_error", `manifest has overlapped roots: '${a}' and '${b}'`, undefined, { details: { entry: "/.manifest" } });
}

/** A data leaf at `path` (slash-free segments) outside every root. */
export function dataOutsideRootsError(roots: readonly string[], path: readonly string[]): RegoError {
  const at = "/" + path.join("/");
  return new RegoError("bundle_error", `manifest roots ${formatRoots(roots)} do not permit data at path '${at}' (hint: check bundle directory structure)`, undefined, {
    details: { path: at },
  });
}

/** A module in `file` whose package (`path`, slash-free segments) lies outside every root. */
export function moduleOutsideRootsError(roots: readonly string[], path: readonly string[], file: string): RegoError {
  return new RegoError("bundle_error", `manifest roots ${formatRoots(roots)} do not permit 'data.${path.join(".")}' in module '${file}'`, undefined, {
    details: { entry: file },
  });
}

/** Two bundles of one client whose roots overlap. */
export function bundlesOverlapError(name: string, roots: readonly string[], otherRoots: readonly string[], otherName: string): RegoError {
  return new RegoError("bundle_error", `bundle ${name}: manifest roots ${formatRoots(roots)} overlap the roots ${formatRoots(otherRoots)} of bundle ${otherName}`);
}

// --- the archive and its contents

export function uncompressedTooLargeError(maxBytes: number, cause: unknown): RegoError {
  return new RegoError("bundle_error", `bundle archive: uncompressed size exceeds the limit of ${maxBytes} bytes`, undefined, { cause });
}

export function gzipError(e: unknown): RegoError {
  return new RegoError("bundle_error", `bundle archive: not a valid gzip stream: ${(e as Error).message}`, undefined, { cause: e });
}

export function tarError(e: Error): RegoError {
  return new RegoError("bundle_error", `bundle archive: not a valid tar stream: ${e.message}`, undefined, { cause: e });
}

/** A problem with one entry (a file) of the archive. */
export function archiveEntryError(entry: string, message: string): RegoError {
  return new RegoError("bundle_error", `bundle archive: entry ${JSON.stringify(entry)}: ${message}`, undefined, { details: { entry } });
}

/** A bundle with /plan.json asked for an entrypoint its plan does not have. */
export function noPlanEntrypointError(path: string, entrypoints: readonly string[]): RegoError {
  return new RegoError("bundle_error", `bundle: /plan.json has no entrypoint ${JSON.stringify(path)} (it has: ${entrypoints.join(", ")})`);
}

export function planNotAloneError(name: string): RegoError {
  return new RegoError("bundle_error", `bundle ${name}: a bundle with /plan.json must be the client's only bundle`);
}

/** A signature check of bundle `name` failed; without a name, the message stands alone. */
export function signatureError(name: string | undefined, message: string, cause?: unknown): RegoError {
  if (name === undefined) return new RegoError("bundle_error", message, undefined, cause ? { cause } : {});
  return new RegoError("bundle_error", `bundle ${name}: signature: ${message}`, undefined, { ...(cause ? { cause } : {}), details: { entry: "/.signatures.json" } }); // signatures.ts' SIGNATURES_FILE
}

// --- delta bundles

/** One patch operation (`op` at `path`) of a delta that cannot be applied. */
export function deltaOpError(name: string, op: string, path: readonly string[], why: string): RegoError {
  return new RegoError("bundle_error", `bundle ${name}: delta: ${op} /${path.join("/")}: ${why}`);
}

/** Why a patch operation at `path` (slash-free segments) is refused: it lies outside the roots. */
export function patchOutsideRoots(roots: readonly string[], path: readonly string[]): string {
  return `manifest roots ${formatRoots(roots)} do not permit data patch at path '${path.join("/")}'`;
}

export function deltaOutsideRootsError(name: string, roots: readonly string[], path: readonly string[]): RegoError {
  return new RegoError("bundle_error", `bundle ${name}: delta: ${patchOutsideRoots(roots, path)}`);
}

export function deltaBeforeSnapshotError(name: string): RegoError {
  return new RegoError("bundle_error", `bundle ${name}: a delta bundle arrived before any snapshot bundle`);
}

export function persistDeltaError(name: string): RegoError {
  return new RegoError("bundle_error", `bundle ${name}: 'persist' is true in the config: persisting a delta bundle to disk is not supported`);
}

export function persistFailedError(name: string, e: unknown): RegoError {
  return new RegoError("bundle_error", `bundle ${name}: persisting the bundle failed: ${(e as Error).message}`, undefined, { cause: e });
}

// --- HTTP (bundle downloads, status and decision-log uploads)

/** `what` (`POST <url>`, `bundle <name>: <url>`) got an HTTP status it does not accept. */
export function httpStatusError(code: RegoErrorCode, what: string, status: number | undefined, statusMessage: string | undefined): RegoError {
  return new RegoError(code, `${what}: server replied with HTTP ${status} ${statusMessage ?? ""}`.trimEnd(), undefined, { details: { status } });
}

/** Why a request failed: stopped by its owner, timed out, or the transport's error. */
export function requestFailure(stopped: boolean, timedOut: boolean, timeoutSeconds: number, e: unknown): string {
  return stopped ? "stopped" : timedOut ? `timed out after ${timeoutSeconds} s` : (e as Error).message;
}

/** `what` (`POST <url>`, `bundle <name>: download of <url>`) failed; `why` from requestFailure. */
export function requestFailedError(code: RegoErrorCode, what: string, why: string, cause: unknown): RegoError {
  return new RegoError(code, `${what} failed: ${why}`, undefined, { cause });
}

export function archiveTooLargeError(name: string, maxBytes: number): RegoError {
  return new RegoError("bundle_error", `bundle ${name}: archive larger than the limit of ${maxBytes} bytes`);
}

export function notModifiedFirstError(name: string): RegoError {
  return new RegoError("bundle_error", `bundle ${name}: server replied with HTTP 304 Not Modified before any bundle was downloaded`);
}

// --- the client

export function configSyntaxError(e: unknown): RegoError {
  return new RegoError("bundle_error", `bundle config: not valid YAML/JSON: ${(e as Error).message}`, undefined, { cause: e });
}

/** A config `field` (a dotted path) with a bad value; `message` says why. */
export function configFieldError(field: string, message: string): RegoError {
  return new RegoError("bundle_error", `bundle config: ${field}: ${message}`, undefined, { details: { field } });
}

export function noBundleNamedError(name: string | undefined): RegoError {
  return new RegoError("bundle_error", `status: no bundle named ${JSON.stringify(name)}`);
}

/** A decision asked for before any of `names` was activated; `why` (with its separator) says what happened. */
export function notActiveError(names: readonly string[], why: string): RegoError {
  return new RegoError("bundle_error", `bundle ${names.join(", ")} is not active yet${why}`);
}

export function noManualTriggerError(): RegoError {
  return new RegoError("bundle_error", "trigger: no bundle has trigger: manual");
}

export function closedBeforeActivationError(name: string): RegoError {
  return new RegoError("bundle_error", `bundle ${name}: closed before the first activation`);
}

export function decisionPathTypeError(): RegoError {
  return new RegoError("bundle_error", 'decision: `path` must be a string such as "authz/allow"');
}

export function decisionPathError(raw: string): RegoError {
  return new RegoError("bundle_error", `decision: invalid path ${JSON.stringify(raw)}: use "pkg/rule" with identifier segments`);
}

// --- decision logs

/** The drop or mask rule failed with an error whose message may quote the input: only its code is kept. */
export function logRuleFailedError(e: unknown): RegoError {
  const code = (e as { code?: unknown })?.code;
  return new RegoError("decision_log_error", `decision log: the drop or mask rule failed (${typeof code === "string" ? code : "error"})`, undefined, { cause: e });
}

/** `e` as a decision-log error (a RegoError as it is), `what` naming the step that failed. */
export function decisionLogError(e: unknown, what: string): RegoError {
  if (e instanceof RegoError) return e;
  return new RegoError("decision_log_error", `${what}: ${(e as Error)?.message ?? String(e)}`, undefined, { cause: e });
}

export function maskNotSetError(rules: unknown): RegoError {
  return new RegoError("decision_log_error", `decision log: the mask rule must be a set, got ${JSON.stringify(rules)}`);
}

/** One mask (`raw`, as the rule gave it) that cannot be applied; `why` says why. */
export function badMaskError(raw: unknown, why: string): RegoError {
  return new RegoError("decision_log_error", `decision log: mask ${JSON.stringify(raw)}: ${why}`);
}
