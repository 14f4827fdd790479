// The hot reloader, scripted: a policy directory in a temp dir, edited while the reloader watches it.
//
//   node --no-experimental-require-module --conditions=regoc-source --import tsx examples/reload/run.ts
//   ... examples/reload/run.ts <dir>    watch your own directory (query data.example.allow) until Ctrl-C
//
// Each step waits for the reloader's callback, never for a fixed time.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HotReloader, type RegoError, type ReloadEvent } from "regoc";

const policy = (role: string) => `package example

default allow := false

allow if input.role == "${role}"
`;

/** One promise per callback: `next.reload` resolves on the next successful reload, `next.error` on the next failure. */
function callbacks() {
  let onReload: (e: ReloadEvent) => void = () => {};
  let onError: (e: RegoError) => void = () => {};
  return {
    options: { onReload: (e: ReloadEvent) => onReload(e), onError: (e: RegoError) => onError(e) },
    reload: () => new Promise<ReloadEvent>((resolve) => (onReload = resolve)),
    error: () => new Promise<RegoError>((resolve) => (onError = resolve)),
  };
}

async function scripted(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "regoc-reload-example-"));
  const file = join(dir, "example.rego");
  writeFileSync(file, policy("admin"));
  const next = callbacks();
  const authz = await HotReloader.create({ dir, query: "data.example.allow", ...next.options });
  const show = async (step: string) =>
    console.log(`${step.padEnd(34)} generation ${authz.status().generation}  admin: ${await authz.authorize({ role: "admin" })}  editor: ${await authz.authorize({ role: "editor" })}`);
  try {
    await show("first load");

    let reloaded = next.reload();
    writeFileSync(file, policy("editor"));
    await reloaded;
    await show("after the edit (admin → editor)");

    const failed = next.error();
    writeFileSync(file, "package example\n\nallow if input.role ==\n");
    const error = await failed;
    console.log(`broken write reported: ${error.toString().replaceAll(dir, "<dir>")}`);
    await show("the old policy still answers");

    reloaded = next.reload();
    writeFileSync(file, policy("admin"));
    await reloaded;
    await show("after the fix");
  } finally {
    await authz.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function watchDir(dir: string): Promise<void> {
  const authz = await HotReloader.create({
    dir,
    query: "data.example.allow",
    onReload: (e) => console.log(`reloaded: generation ${e.generation}, revision ${e.revision}, ${e.files.length} file(s)`),
    onError: (e) => console.log(`reload failed, the previous policy stays: ${e.toString()}`),
  });
  console.log(`watching ${dir} (generation ${authz.status().generation}); Ctrl-C to stop`);
  process.once("SIGINT", () => void authz.close());
}

const dir = process.argv[2];
await (dir === undefined ? scripted() : watchDir(dir));
