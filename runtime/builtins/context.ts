// The per-evaluation context every builtin call receives: strictness, the evaluation's fixed clock
// and random source (injectable for tests), the evaluation's cache of builtin results (one answer
// per evaluation for nondeterministic builtins and http.send, errors included, as OPA keeps them),
// and the print hook.
import type { Value } from "../value/value.js";
import { NO_DEADLINE, hasDeadline, type Deadline, type DeadlineOptions } from "../eval/deadline.js";

/** What an evaluation remembers of a builtin call: its value (undefined: no value) or its error. */
export type Remembered = { value: Value | undefined } | { error: unknown };

/** numbers.range's default bound on its result's length (see `maxRangeLength`). */
export const DEFAULT_MAX_RANGE_LENGTH = 10_000_000;

export interface EvalOptions extends DeadlineOptions {
  /** Raise builtin errors instead of making the call undefined (OPA's strict-builtin-errors). */
  strictBuiltinErrors?: boolean;
  /** Clock for time.now_ns and friends: nanoseconds since the epoch. Read once per evaluation. */
  now?: () => bigint;
  /** Random source in [0, 1) for rand.intn, uuid.rfc4122, ... */
  random?: () => number;
  /** Where `print` writes; off (no output) by default. */
  print?: (message: string) => void;
  /**
   * What `opa.runtime()` returns. Default `{}`, as OPA embedded as a library without runtime
   * information: nothing of the host (environment variables, configuration) reaches a policy
   * unless the application passes it here.
   */
  runtime?: Value;
  /**
   * The longest array numbers.range and numbers.range_step may build (default 10 000 000); a
   * longer one is an eval_internal_error, before anything is built. With a deadline (`timeoutMs`,
   * `signal`) the bound is ten times higher and checked as the range is built: the deadline ends
   * a runaway range first.
   */
  maxRangeLength?: number;
}

const NO_OPTIONS: EvalOptions = Object.freeze({});

export class EvalContext {
  // (Not readonly: a pooled evaluation state starts each evaluation with `begin`.)
  strict!: boolean;
  print: ((message: string) => void) | undefined;
  random!: () => number;
  runtime: Value | undefined;
  /** The longest range numbers.range may build, and whether it is checked before building. */
  rangeLimit!: number;
  rangeUpfront!: boolean;
  /** The evaluation's deadline: builtins that iterate or allocate `tick` it. */
  readonly deadline: Deadline;
  private clock!: () => bigint;
  private nowNs: bigint | undefined;
  /**
   * Results remembered for this evaluation, keyed by builtin name and arguments (the registry's
   * cache of nondeterministic builtins; http.send's and rand.intn's own keys start with their name).
   */
  get builtinCache(): Map<string, Remembered> {
    return (this.cache ??= new Map());
  }
  /** Allocated on first use: most decisions call no builtin that needs it. */
  private cache: Map<string, Remembered> | undefined;

  constructor(options: EvalOptions = NO_OPTIONS, deadline: Deadline = NO_DEADLINE) {
    this.deadline = deadline;
    this.begin(options);
  }

  /** Starts a new evaluation with these options: nothing of the previous one is kept. */
  begin(options: EvalOptions = NO_OPTIONS): void {
    this.strict = options.strictBuiltinErrors === true;
    this.print = options.print;
    this.random = options.random ?? Math.random;
    this.clock = options.now ?? defaultClock;
    this.runtime = options.runtime;
    const timed = hasDeadline(options);
    this.rangeUpfront = !timed;
    this.rangeLimit = (options.maxRangeLength ?? DEFAULT_MAX_RANGE_LENGTH) * (timed ? 10 : 1);
    this.nowNs = undefined;
    this.cache = undefined;
  }

  /** The evaluation's time in ns since the epoch: the same for every call within one evaluation. */
  now(): bigint {
    return (this.nowNs ??= this.clock());
  }
}

function defaultClock(): bigint {
  // performance.* exists in Node and browsers; it carries sub-millisecond digits.
  const t = performance.timeOrigin + performance.now();
  const ms = Math.floor(t);
  return BigInt(ms) * 1_000_000n + BigInt(Math.floor((t - ms) * 1e6));
}
