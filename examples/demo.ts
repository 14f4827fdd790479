// `npm run demo`: compiles the policies, starts the example server on a free port, plays the
// behaviour table with real signed tokens and prints it. Exits 0 only when every row is as expected.
import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { generatePolicies } from "../scripts/compile-policies.js";
import { signToken } from "./server/auth.js";
import { startServer } from "./server/server.js";
import { DEMO_ROWS, type DemoRow } from "./server/table.js";

const root = fileURLToPath(new URL("..", import.meta.url));

async function compilePolicies(): Promise<void> {
  for (const [file, code] of Object.entries(generatePolicies())) {
    const path = join(root, file);
    const current = await readFile(path, "utf8").catch(() => undefined);
    if (current === code) {
      console.log(`  ${file}: up to date`);
      continue;
    }
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, code);
    console.log(`  ${file}: written`);
  }
}

function pad(s: string, n: number): string {
  return s.length >= n ? s : s + " ".repeat(n - s.length);
}

function unsignedToken(claims: object): string {
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
  return `${b64({ alg: "none", typ: "JWT" })}.${b64(claims)}.`;
}

async function tokenFor(row: DemoRow, key: Uint8Array): Promise<string | undefined> {
  if (!row.user) return undefined;
  const claims = { sub: row.user.id, ...(row.user.role ? { role: row.user.role } : {}) };
  switch (row.token ?? "valid") {
    case "valid":
      return signToken(claims, key);
    case "expired":
      return signToken(claims, key, { expiresIn: Math.floor(Date.now() / 1000) - 60 });
    case "none":
      return unsignedToken(claims);
    case "wrong-key":
      return signToken(claims, new Uint8Array(randomBytes(32)));
  }
}

async function main(): Promise<number> {
  console.log("1. compiling the policies (npm run compile-policies)");
  await compilePolicies();

  console.log("2. starting the example server");
  const key = new Uint8Array(randomBytes(32));
  let hour = 10;
  const server = await startServer({
    port: 0,
    host: "127.0.0.1",
    key,
    now: () => {
      const d = new Date();
      d.setHours(hour, 30, 0, 0);
      return d;
    },
  });
  console.log(`  listening on ${server.url}\n`);

  console.log("3. the behaviour table");
  const header = `${pad("request", 38)}${pad("user", 26)}${pad("hour", 6)}${pad("expected", 14)}${pad("got", 14)}`;
  console.log(header);
  console.log("-".repeat(header.length + 2));
  let failures = 0;
  try {
    for (const row of DEMO_ROWS) {
      hour = row.hour ?? 10;
      const token = await tokenFor(row, key);
      const res = await fetch(server.url + row.path, {
        method: row.method,
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });
      await res.arrayBuffer();
      const ok = res.status === row.expect;
      if (!ok) failures++;
      const who = row.user ? `${row.user.id}${row.user.role ? ` (${row.user.role})` : ""}${row.token && row.token !== "valid" ? ` [${row.token}]` : ""}` : "(no token)";
      console.log(
        `${pad(`${row.method} ${row.path}`, 38)}${pad(who, 26)}${pad(String(hour), 6)}${pad(statusText(row.expect), 14)}${pad(statusText(res.status), 14)}${ok ? "ok" : "MISMATCH"}`,
      );
    }
  } finally {
    await server.close();
  }
  console.log(`\n${DEMO_ROWS.length - failures}/${DEMO_ROWS.length} rows as expected`);
  return failures === 0 ? 0 : 1;
}

function statusText(status: number): string {
  const names: Record<number, string> = { 200: "200 allow", 401: "401 unauth", 403: "403 deny", 500: "500 error" };
  return names[status] ?? String(status);
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`demo failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    process.exit(1);
  },
);
