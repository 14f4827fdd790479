// Node's built-in modules for the builtins that need them (digests, keys and signatures through
// node:crypto, http.send's client and TLS options, net.lookup_ip_addr's resolver), taken when a
// builtin first needs one from `process.getBuiltinModule` — synchronously, and by a call bundlers
// do not follow: a module bundled for browsers or edge runtimes builds without Node's modules, and
// there such a builtin fails with an eval_builtin_error that names the module it lacks.
import { builtinError } from "./args.js";

type GetBuiltinModule = (id: string) => unknown;

/** Node's module `node:<name>`; a builtin error where the runtime has none. */
export function nodeModule<T>(name: string): T {
  const get = (globalThis as { process?: { getBuiltinModule?: GetBuiltinModule } }).process?.getBuiltinModule;
  const mod = typeof get === "function" ? get(`node:${name}`) : undefined;
  if (mod === undefined) throw builtinError(`node:${name} is not available in this runtime`);
  return mod as T;
}

let crypto: typeof import("node:crypto") | undefined;

/** node:crypto (see nodeModule). */
export function nodeCrypto(): typeof import("node:crypto") {
  return (crypto ??= nodeModule<typeof import("node:crypto")>("crypto"));
}
