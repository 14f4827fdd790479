// Where the shared test data lives (../shared next to the repository, or $REGOC_SHARED).
// It exists in this workplace and in CI, never on a user's machine: suites that read it call
// `describeWithShared`, which skips them, saying so, when it is absent.
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
export const sharedDir = resolve(process.env.REGOC_SHARED ?? join(repoRoot, "..", "shared"));
export const haveShared = existsSync(join(sharedDir, "compliance", "index.json"));

/** `describe` when ../shared is present; otherwise a skipped suite whose title says why. */
export function describeWithShared(title: string, fn: (this: Mocha.Suite) => void): void {
  if (haveShared) describe(title, fn);
  else describe.skip(`${title} (skipped: ${sharedDir} is absent)`, fn);
}
