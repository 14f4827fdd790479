// `persist: true`: the last good archive of a bundle at `<persistence_directory>/bundles/<name>/bundle.tar.gz`,
// written to a temporary file and renamed into place, read at start (and verified again) so that
// decisions can be served while the bundle server is down. Node-only: loaded by the client on demand.
import { constants } from "node:fs";
import { mkdir, open, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { randomUUID } from "node:crypto";

function file(dir: string, name: string): string {
  const safe = name === "." || name === ".." ? encodeURIComponent(name).replace(/\./g, "%2E") : encodeURIComponent(name);
  return join(dir, "bundles", safe, "bundle.tar.gz");
}

/** The persisted archive, or undefined when there is none. Anything but a regular file of at most
 * `maxBytes` (a FIFO, a device, a symlink to one, a huge file) is refused without reading it:
 * opened non-blocking, so that a FIFO cannot hold the client's start. */
export async function readPersisted(dir: string, name: string, maxBytes: number): Promise<Buffer | undefined> {
  const path = file(dir, name);
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw e;
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new Error(`${path} is not a regular file`);
    if (stat.size > maxBytes) throw new Error(`${path} is larger than the archive limit of ${maxBytes} bytes`);
    // no more than the size seen: a file that grows meanwhile is read up to that size
    const archive = Buffer.alloc(stat.size);
    let read = 0;
    while (read < archive.length) {
      const { bytesRead } = await handle.read(archive, read, archive.length - read, read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    return archive.subarray(0, read);
  } finally {
    await handle.close();
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
