// Runs a TypeScript fixture in a child Node process (through tsx, on the sources, as the tests run),
// with extra Node flags (--expose-gc for the memory checks), and returns its exit status and the
// text of its stdout and stderr.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export interface ChildOutput {
  status: number | null;
  stdout: string;
  stderr: string;
}

export async function runFixture(fixture: URL, nodeFlags: readonly string[]): Promise<ChildOutput> {
  const child = spawn(
    process.execPath,
    ["--no-experimental-require-module", "--conditions=regoc-source", "--import", "tsx", ...nodeFlags, fileURLToPath(fixture)],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const status = await new Promise<number | null>((resolve) => child.on("close", resolve));
  return { status, stdout, stderr };
}
