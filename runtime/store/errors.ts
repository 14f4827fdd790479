// The store's errors, by situation (OPA's storage error codes, storage/errors.go).
import { RegoError } from "../errors.js";

/** A storage path that does not parse; `problem` says why. */
export function invalidPathError(problem: string): RegoError {
  return new RegoError("storage_invalid_path_error", `storage path ${problem}`);
}

/** `path` (formatted) names an array element that is not there. */
export function badIndexError(path: string): RegoError {
  return new RegoError("storage_invalid_path_error", `${path}: array index out of range or not an integer`);
}

/** `path` (formatted) names no document. */
export function notFoundError(path: string): RegoError {
  return new RegoError("storage_not_found_error", `${path}: document does not exist`);
}

export function rootNotObjectError(): RegoError {
  return new RegoError("storage_invalid_value_error", "the root document must be an object");
}

/** A value that may not enter the store; `where` names it, `problem` says why. */
export function invalidValueError(where: string, problem: string, cause?: unknown): RegoError {
  return new RegoError("storage_invalid_value_error", `${where}: ${problem}`, undefined, cause === undefined ? undefined : { cause });
}

/** What reading a value that throws (a getter, a proxy) reports. */
export function readingThrew(e: unknown): string {
  return `reading it threw ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`;
}

export function transactionError(message: string): RegoError {
  return new RegoError("storage_transaction_error", message);
}
