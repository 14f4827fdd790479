// Runs a CLI command's `run` in this process and records what it writes: its exit code and its
// stdout and stderr text (the streams are restored afterwards, whatever happens).
export interface CommandOutput {
  code: number;
  out: string;
  err: string;
}

export async function captureOutput(run: () => Promise<number>): Promise<CommandOutput> {
  const out: string[] = [];
  const err: string[] = [];
  const text = (chunk: string | Uint8Array) => (typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
  const write = process.stdout.write;
  const ewrite = process.stderr.write;
  process.stdout.write = ((chunk: string | Uint8Array) => (out.push(text(chunk)), true)) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string | Uint8Array) => (err.push(text(chunk)), true)) as typeof process.stderr.write;
  try {
    const code = await run();
    return { code, out: out.join(""), err: err.join("") };
  } finally {
    process.stdout.write = write;
    process.stderr.write = ewrite;
  }
}
