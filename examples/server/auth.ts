// JWT authentication for the example server (jose): `Authorization: Bearer <token>`, HS256 only.
//
//   valid token             → req.user = {id: sub, role, authenticated: true, ...fields of a `user` claim}
//   no Authorization header → no req.user (the authorization middleware answers 401)
//   anything else           → 401 Unauthorized, here: garbled, expired, not yet valid (nbf), wrong
//                             signature, `alg: none` or any algorithm but HS256, no string `sub`,
//                             a `role` that is not a string, a `user` claim that is not an object
import { SignJWT, jwtVerify, errors as joseErrors } from "jose";
import type { NextFunction, Request, Response } from "express";

/** The secret used when JWT_SECRET is not set. Development only: anyone can read it here. */
export const DEV_SECRET = "regoc-example-development-secret-change-me";

/** The user a verified token describes: the policy's `input.user`. */
export type User = Record<string, unknown> & { id: string; role?: string; authenticated: true };

export class AuthError extends Error {
  override readonly name = "AuthError";
}

/** The HS256 key from JWT_SECRET, with a loud warning when the development default is used. */
export function secretFromEnv(env: NodeJS.ProcessEnv = process.env, warn: (m: string) => void = (m) => console.warn(m)): Uint8Array {
  const secret = env.JWT_SECRET;
  if (secret === undefined || secret === "") {
    warn(
      [
        "",
        "!".repeat(78),
        "!!  WARNING: JWT_SECRET is not set: using the DEVELOPMENT secret.",
        "!!  Anyone can sign tokens this server accepts. Set JWT_SECRET (32+ random bytes) in production.",
        "!".repeat(78),
        "",
      ].join("\n"),
    );
    return new TextEncoder().encode(DEV_SECRET);
  }
  if (secret.length < 32) warn("WARNING: JWT_SECRET is shorter than 32 characters: HS256 wants at least 256 bits of secret.");
  return new TextEncoder().encode(secret);
}

/** Verifies a compact JWT and maps its claims to the policy's user. Throws AuthError. */
export async function verifyToken(token: string, key: Uint8Array): Promise<User> {
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(token, key, { algorithms: ["HS256"] }));
  } catch (e) {
    if (e instanceof joseErrors.JOSEError) throw new AuthError(`invalid token (${e.code})`);
    throw new AuthError("invalid token");
  }
  const { sub, role, user } = payload;
  if (typeof sub !== "string" || sub === "") throw new AuthError("token has no subject (sub)");
  if (role !== undefined && typeof role !== "string") throw new AuthError("token role is not a string");
  if (user !== undefined && (typeof user !== "object" || user === null || Array.isArray(user))) {
    throw new AuthError("token user claim is not an object");
  }
  // A null-prototype object: claim keys such as "__proto__" stay ordinary keys.
  const out = Object.create(null) as User;
  for (const [k, v] of Object.entries((user ?? {}) as Record<string, unknown>)) define(out, k, v);
  define(out, "id", sub);
  if (role !== undefined) define(out, "role", role);
  define(out, "authenticated", true);
  return out;
}

function define(o: object, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

/** Express middleware: sets req.user from a valid bearer token; 401 for a bad one. */
export function authenticate(key: Uint8Array) {
  return async function authenticateJwt(req: Request, res: Response, next: NextFunction): Promise<void> {
    const header = req.headers.authorization;
    if (header === undefined) return next();
    const m = /^Bearer +([A-Za-z0-9_\-.]+)$/i.exec(header.trim());
    if (!m) return unauthorized(res);
    try {
      (req as Request & { user?: User }).user = await verifyToken(m[1]!, key);
    } catch (e) {
      if (e instanceof AuthError) return unauthorized(res);
      return next(e);
    }
    next();
  };
}

function unauthorized(res: Response): void {
  res.status(401).set("WWW-Authenticate", 'Bearer error="invalid_token"').type("text/plain").send("Unauthorized");
}

/** Signs a token the server accepts (for the demo and tests). */
export async function signToken(
  claims: { sub: string; role?: string; [claim: string]: unknown },
  key: Uint8Array,
  options: { expiresIn?: string | number; notBefore?: string | number } = {},
): Promise<string> {
  const jwt = new SignJWT(claims).setProtectedHeader({ alg: "HS256", typ: "JWT" }).setIssuedAt();
  jwt.setExpirationTime(options.expiresIn ?? "1h");
  if (options.notBefore !== undefined) jwt.setNotBefore(options.notBefore);
  return jwt.sign(key);
}
