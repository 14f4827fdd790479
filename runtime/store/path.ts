// Storage paths: slash-separated, as OPA's storage API writes them ("/a/b/0"), the leading "/" optional
// ("a/b/0", as OPA's service descriptions write them). "/" is the root.
// Segments are percent-decoded (so a key holding "/" is written "%2F"); an empty segment or a
// malformed escape is a storage_invalid_path_error.
import { invalidPathError } from "./errors.js";

export type StoragePath = readonly string[];

export function parsePath(path: string | readonly string[]): StoragePath {
  if (typeof path !== "string") {
    if (!Array.isArray(path) || path.some((s) => typeof s !== "string")) {
      throw invalidPathError("must be a string or an array of strings");
    }
    return path.slice();
  }
  // OPA's storage paths start with "/", its services' descriptions do not: both are accepted
  if (path === "") throw invalidPathError(`is empty (the whole document is "/")`);
  if (path === "/") return [];
  const raw = path.replace(/\/$/, "").replace(/^\//, "").split("/");
  return raw.map((seg) => {
    if (seg === "") throw invalidPathError(`has an empty segment: ${JSON.stringify(path)}`);
    try {
      return decodeURIComponent(seg);
    } catch {
      throw invalidPathError(`has a malformed escape: ${JSON.stringify(path)}`);
    }
  });
}

export function formatPath(path: StoragePath): string {
  return `/${path.map((s) => encodeURIComponent(s)).join("/")}`;
}

/** An array index segment: a canonical non-negative integer ("0", "12"), else undefined. */
export function arrayIndex(seg: string): number | undefined {
  return /^(0|[1-9]\d*)$/.test(seg) && seg.length < 16 ? Number(seg) : undefined;
}
