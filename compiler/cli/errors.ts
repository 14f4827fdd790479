// The errors of the `regoc` commands (cli_usage_error), by situation: a command called wrongly, a
// flag given a value it does not take, a path that is not there.
import { RegoError } from "../../runtime/errors.js";

/** A command called wrongly: the message, then the command's usage line when given. */
export function usageError(message: string, usage?: string): RegoError {
  return new RegoError("cli_usage_error", usage === undefined ? message : `${message}\n${usage}`);
}

/** A flag given a value it does not take: `--flag: problem`. */
export function flagError(flag: string, problem: string): RegoError {
  return new RegoError("cli_usage_error", `${flag}: ${problem}`);
}

/** A flag's value outside the few regoc supports (`supported` as the message lists them). */
export function unsupportedFlagValueError(flag: string, value: string, supported: string): RegoError {
  return flagError(flag, `'${value}' is not supported (only ${supported})`);
}

export function noSuchPathError(path: string): RegoError {
  return new RegoError("cli_usage_error", `${path}: no such file or directory`);
}

/** A file given on the command line that cannot be read or decoded. */
export function fileError(file: string, message: string): RegoError {
  return new RegoError("cli_usage_error", `${file}: ${message}`);
}
