// `persist: true`: the last good archive of a bundle at `<persistence_directory>/bundles/<name>/bundle.tar.gz`,
// written to a temporary file and renamed into place, read at start (and verified again) so that
// decisions can be served while the bundle server is down. Node-only: loaded by the client on demand.
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { randomUUID } from "node:crypto";

function file(dir: string, name: string): string {
  const safe = name === "." || name === ".." ? encodeURIComponent(name).replace(/\./g, "%2E") : encodeURIComponent(name);
  return join(dir, "bundles", safe, "bundle.tar.gz");
}

/** The persisted archive, or undefined when there is none. */
export async function readPersisted(dir: string, name: string): Promise<Buffer | undefined> {
  try {
    return await readFile(file(dir, name));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw e;
  }
}

export async function writePersisted(dir: string, name: string, archive: Buffer): Promise<void> {
  const target = file(dir, name);
  const temp = `${target}.${randomUUID()}.tmp`;
  await mkdir(join(target, ".."), { recursive: true });
  try {
    await writeFile(temp, archive, { flag: "wx", mode: 0o600 });
    await rename(temp, target);
  } catch (e) {
    await rm(temp, { force: true });
    throw e;
  }
}
