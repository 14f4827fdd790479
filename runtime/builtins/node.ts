// Node's built-in modules for the builtins that need them (http.send's client and TLS options,
// net.lookup_ip_addr), imported on first use through a specifier that bundlers do not follow: a
// module bundled for browsers or edge runtimes builds without them, and there the import rejects
// (each caller reports what is not available as an eval_builtin_error).
export function importNode<T>(name: string): Promise<T> {
  const specifier = `node:${name}`;
  return import(specifier) as Promise<T>;
}
