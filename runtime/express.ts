// Express middleware (exported as `regoc/express`): builds the decision input from the request and
// answers for the policy.
//   no user object (or not an object) → 401 Unauthorized
//   the decision throws               → 500 Internal Server Error (logged without secrets),
//                                        past its deadline (`timeoutMs`) included
//   false                             → 403 Forbidden
//   true                              → next()
// Bodies are plain text equal to the status text. Types are structural, so using this module does
// not require @types/express.

/** The input document a policy sees. */
export interface RequestInput {
  method: string;
  /** The mount-relative path split on "/", leading/trailing "/" trimmed, each segment percent-decoded. */
  path: string[];
  user: Record<string, unknown>;
  /** Lower-case header names → all their values. */
  headers: Record<string, string[]>;
  /** The current hour, 0–23, from the clock. */
  time: number;
  [key: string]: unknown;
}

/** What the middleware reads of a request (Express's Request has it; no index signature, so that
 * Express's interfaces are assignable). The user is read from `req.user` unless `getUser` says. */
export interface RequestLike {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  headersDistinct?: Record<string, string[] | undefined>;
  /** Node's list of header names and values as received (name, value, name, value, ...). */
  rawHeaders?: string[];
  /** The authenticated user an authentication middleware set (read unless `getUser` says). */
  user?: unknown;
}

export interface ResponseLike {
  status(code: number): ResponseLike;
  type(type: string): ResponseLike;
  send(body: string): unknown;
  headersSent?: boolean;
}

export type NextLike = (err?: unknown) => void;

/** A decision's deadline, as the runtime's decision APIs take it. */
export interface DecisionDeadline {
  timeoutMs?: number;
}

export interface Decider {
  authorize(input: unknown, deadline?: DecisionDeadline): Promise<boolean> | boolean;
  /** When present and `async` is false, used instead of `authorize` (an Authorizer has both). */
  authorizeSync?(input: unknown, deadline?: DecisionDeadline): boolean;
  readonly async?: boolean;
}

function isSyncAuthorizer(a: Decider | undefined): a is Decider & { authorizeSync(input: unknown, deadline?: DecisionDeadline): boolean } {
  return a !== undefined && typeof a.authorizeSync === "function" && a.async === false;
}

/** `I`: the input type `decide` takes, e.g. a generated `ApiInput` (the middleware gives it the
 * RequestInput it builds, as `extendInput` left it: that it fits is the application's claim). */
export interface AuthorizeOptions<I = RequestInput> {
  /** An Authorizer (or anything with `authorize(input)`). One of authorizer/decide is required. */
  authorizer?: Decider;
  /** A decision function, e.g. a generated `apiAllow` bound to data. */
  decide?: (input: I, req: RequestLike) => Promise<boolean> | boolean;
  /** Where the user comes from; default `req.user` (set by an authentication middleware). */
  getUser?: (req: RequestLike) => unknown;
  /** Adds fields (e.g. `action`, `resource`) to the input; may return a new object or mutate it. */
  extendInput?: (input: RequestInput, req: RequestLike) => RequestInput | void;
  /** Clock for `time`; default `() => new Date()`. */
  now?: () => Date;
  /** Hour of a date, default the local hour (`date.getHours()`); pass `d => d.getUTCHours()` for UTC. */
  hourOf?: (date: Date) => number;
  /** Milliseconds an `authorizer`'s decision may run: past them it fails (eval_cancel_error), the
   * request gets a 500 and the server goes on serving. Default: no deadline. */
  timeoutMs?: number;
  /** Where errors are reported; default console.error. Receives the error's code and location only, never
   * its message (it may quote a token), the input or headers. */
  log?: (message: string) => void;
}

export function authorize<I = RequestInput>(options: AuthorizeOptions<I>) {
  const { authorizer, decide } = options;
  if (!authorizer && !decide) throw new TypeError("authorize(): pass `authorizer` or `decide`");
  const getUser = options.getUser ?? ((req: RequestLike) => req.user);
  const now = options.now ?? (() => new Date());
  const hourOf = options.hourOf ?? ((d: Date) => d.getHours());
  const log = options.log ?? ((m: string) => console.error(m));
  // An Authorizer whose policy needs no async builtin decides synchronously (no promise per request).
  const syncAuthorizer = !decide && isSyncAuthorizer(authorizer) ? authorizer : undefined;
  const deadline = options.timeoutMs === undefined ? undefined : { timeoutMs: options.timeoutMs };

  /** The input for a request, or undefined when it has no user (401 sent). Throws on a failing hook. */
  function inputOf(req: RequestLike, res: ResponseLike): RequestInput | undefined {
    const user = getUser(req);
    if (typeof user !== "object" || user === null || Array.isArray(user)) {
      reply(res, 401, "Unauthorized");
      return undefined;
    }
    const input: RequestInput = {
      method: req.method,
      path: splitPath(req.path),
      user: user as Record<string, unknown>,
      headers: headersOf(req),
      time: hourOf(now()),
    };
    return options.extendInput ? (options.extendInput(input, req) ?? input) : input;
  }

  /** The answer for a decision's value: next() for true, 403 for false, 500 for anything else. */
  function answer(allowed: unknown, req: RequestLike, res: ResponseLike, next: NextLike): void {
    if (typeof allowed !== "boolean") return fail(new TypeError(`decision is ${typeof allowed}, not boolean`), req, res);
    if (allowed) next();
    else reply(res, 403, "Forbidden");
  }

  function fail(e: unknown, req: RequestLike, res: ResponseLike): void {
    try {
      log(`regoc/express: decision failed for ${req.method} ${safePath(req.path)}: ${describe(e)}`);
    } catch {
      // a failing logger must not keep the request from its answer
    }
    reply(res, 500, "Internal Server Error");
  }

  // A synchronous decision returns no promise: Express attaches handlers to every promise a
  // middleware returns, a cost per request that a sync decision need not pay.
  return function regocAuthorize(req: RequestLike, res: ResponseLike, next: NextLike): void | Promise<void> {
    let pending: unknown;
    try {
      const input = inputOf(req, res);
      if (input === undefined) return;
      pending = decide ? decide(input as I, req) : syncAuthorizer ? syncAuthorizer.authorizeSync(input, deadline) : authorizer!.authorize(input, deadline);
    } catch (e) {
      fail(e, req, res);
      return;
    }
    if (!isThenable(pending)) return answer(pending, req, res, next);
    return Promise.resolve(pending).then(
      (allowed: unknown) => answer(allowed, req, res, next),
      (e: unknown) => fail(e, req, res),
    );
  };
}

function isThenable(x: unknown): x is PromiseLike<unknown> {
  return typeof x === "object" && x !== null && typeof (x as { then?: unknown }).then === "function";
}

function reply(res: ResponseLike, status: number, text: string): void {
  if (res.headersSent) return;
  res.status(status).type("text/plain").send(text);
}

/** "/users/a%2Fb/" → ["users", "a/b"]; a malformed escape keeps the segment's raw text. */
export function splitPath(path: string): string[] {
  let start = 0;
  let end = path.length;
  while (start < end && path.charCodeAt(start) === 47) start++;
  while (end > start && path.charCodeAt(end - 1) === 47) end--;
  if (start === end) return [];
  const segments = path.slice(start, end).split("/");
  if (!path.includes("%")) return segments;
  return segments.map(decodeSegment);
}

function decodeSegment(seg: string): string {
  if (!seg.includes("%")) return seg;
  try {
    return decodeURIComponent(seg);
  } catch {
    return seg;
  }
}

function headersOf(req: RequestLike): Record<string, string[]> {
  const out: Record<string, string[]> = Object.create(null);
  const raw = req.rawHeaders;
  if (raw) {
    // Node's name/value list, read once (headersDistinct would build the same map, then be copied)
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const name = raw[i]!.toLowerCase();
      const values = out[name];
      if (values) values.push(raw[i + 1]!);
      else out[name] = [raw[i + 1]!];
    }
    return out;
  }
  const distinct = req.headersDistinct;
  if (distinct) {
    for (const name of Object.keys(distinct)) {
      const v = distinct[name];
      if (v) out[name.toLowerCase()] = v.slice();
    }
    return out;
  }
  for (const name of Object.keys(req.headers)) {
    const v = req.headers[name];
    if (v === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(v) ? v.slice() : [v];
  }
  return out;
}

/** The error's code and location only: a message may quote an operand (a token, a header), so it
 * is never logged. */
function describe(e: unknown): string {
  if (!(e instanceof Error)) return "non-error thrown";
  const code = (e as { code?: unknown }).code;
  if (typeof code !== "string") return e.name;
  const location = (e as { location?: unknown }).location;
  return isLocation(location) ? `${code} at ${location.file}:${location.row}:${location.col}` : code;
}

function isLocation(l: unknown): l is { file: string; row: number; col: number } {
  const x = l as { file?: unknown; row?: unknown; col?: unknown } | undefined;
  return typeof x === "object" && x !== null && typeof x.file === "string" && typeof x.row === "number" && typeof x.col === "number";
}

function safePath(path: string): string {
  return path.length > 200 ? `${path.slice(0, 200)}…` : path;
}
