// The one error type of regoc, compile time and evaluation time alike.
// Codes are OPA's strings, verbatim; a new code is added only where none of OPA's fits,
// named in the same style (see style.md, "Errors").

export type RegoErrorCode =
  // compile time
  | "rego_parse_error"
  | "rego_compile_error"
  | "rego_type_error"
  | "rego_unsafe_var_error"
  | "rego_recursion_error"
  // a compile-time warning (regoc check): see compiler/passes/checkNegation.ts
  | "rego_negation_warning"
  // evaluation time
  | "eval_type_error"
  | "eval_builtin_error"
  | "eval_conflict_error"
  | "eval_invalid_result"
  | "eval_internal_error"
  | "eval_cancel_error"
  // data-filter compilation (OPA's compile API)
  | "pe_fragment_error"
  | "invalid_unknown"
  | "invalid_mask_rule"
  | "invalid_parameter"
  // regoc's own, in the same style
  | "plan_invalid_error"
  | "storage_invalid_path_error"
  | "storage_not_found_error"
  | "storage_invalid_value_error"
  | "storage_transaction_error"
  | "bundle_error"
  | "decision_log_error"
  | "status_error"
  | "cli_usage_error"
  // partial evaluation (compiler/partial): a construct it cannot keep as a residual, a bad unknown
  | "pe_unsupported"
  | "pe_invalid_unknown";

/** A position in Rego source, 1-based as in OPA. */
export interface Location {
  file: string;
  row: number;
  col: number;
  /** 0-based UTF-16 offset into the source, when known. */
  offset?: number;
  /** The source text the location covers, when known. */
  text?: string;
}

export class RegoError extends Error {
  readonly code: RegoErrorCode;
  readonly location: Location | undefined;
  readonly details: unknown;

  constructor(code: RegoErrorCode, message: string, location?: Location, options?: { details?: unknown; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "RegoError";
    this.code = code;
    this.location = location;
    this.details = options?.details;
  }

  /** `file:row:col: code: message`, the form the CLI prints. */
  override toString(): string {
    return `${formatLocation(this.location)}${this.code}: ${this.message}`;
  }

  /** OPA's JSON shape for errors (`{code, message, location: {file, row, col}}`). */
  toJSON(): { code: string; message: string; location?: { file: string; row: number; col: number } } {
    const out: { code: string; message: string; location?: { file: string; row: number; col: number } } = {
      code: this.code,
      message: this.message,
    };
    if (this.location) out.location = { file: this.location.file, row: this.location.row, col: this.location.col };
    return out;
  }
}

export function formatLocation(location: Location | undefined): string {
  if (!location) return "";
  return `${location.file}:${location.row}:${location.col}: `;
}

export function isRegoError(e: unknown): e is RegoError {
  return e instanceof RegoError;
}

/** Sorts errors by file, row and col, as OPA's error lists are. */
export function sortErrors(errors: RegoError[]): RegoError[] {
  return errors.slice().sort((a, b) => {
    const la = a.location;
    const lb = b.location;
    if (!la || !lb) return la ? 1 : lb ? -1 : 0;
    if (la.file !== lb.file) return la.file < lb.file ? -1 : 1;
    return la.row - lb.row || la.col - lb.col;
  });
}

/** Thrown when a compilation reports several errors: the first is the message, all are in `errors`. */
export class RegoErrors extends RegoError {
  readonly errors: readonly RegoError[];
  constructor(errors: RegoError[]) {
    const sorted = sortErrors(errors);
    const first = sorted[0];
    if (!first) throw new TypeError("RegoErrors needs at least one error");
    const message =
      sorted.length === 1 ? first.message : `${sorted.length} errors occurred:\n${sorted.map((e) => e.toString()).join("\n")}`;
    super(first.code, message, first.location, { details: sorted });
    this.errors = sorted;
  }
}

/**
 * The message for a JavaScript resource failure (call stack or memory exhausted), undefined for
 * any other error. Such a failure is never a "no value": it is always reported as
 * eval_internal_error, so a deny rule cannot be switched off by an input that is too deep or big.
 */
export function resourceFailure(e: unknown): string | undefined {
  if (!(e instanceof RangeError)) return undefined;
  if (e.message === "Maximum call stack size exceeded") return "value nested too deeply (the JavaScript call stack is exhausted)";
  if (/^(Invalid (string|array|typed array) length|Array buffer allocation failed)/.test(e.message)) return `out of memory (${e.message})`;
  return undefined;
}

/** OPA's error for an evaluation past its deadline or cancelled by its caller (a builtin that
 * gives up waiting, such as a DNS lookup past its timeout, says why); it always propagates. */
export function cancelError(message = "caller cancelled query execution"): RegoError {
  return new RegoError("eval_cancel_error", message);
}

/** A resource failure (see resourceFailure) as an eval_internal_error; undefined for other errors. */
export function resourceError(e: unknown, prefix = "", location?: Location): RegoError | undefined {
  const message = resourceFailure(e);
  return message === undefined ? undefined : new RegoError("eval_internal_error", prefix + message, location, { cause: e });
}

/** Whether a JavaScript error is the call stack running out. */
export function isStackOverflow(e: unknown): boolean {
  return e instanceof RangeError && /call stack/i.test(e.message);
}

/** The end of a switch that handles every case of a union: a type error when a case is missing,
 * an internal error should a value of no known case arrive anyway. */
export function assertNever(x: never): never {
  throw new Error(`unexpected node: ${JSON.stringify((x as { type?: unknown } | undefined)?.type ?? x)}`);
}
