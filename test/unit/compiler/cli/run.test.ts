// `regoc run`: its usage errors (exit 2, cli_usage_error naming the flag) before anything is loaded
// or served. Serving itself is tested end to end in test/integration/opa-server.test.ts.
import { expect } from "chai";
import { main } from "../../../../compiler/cli.js";
import { captureOutput } from "../../../support/cli.js";

const run = (argv: string[]) => captureOutput(() => main(["run", ...argv]));

describe("regoc run", () => {
  const cases: [string[], RegExp][] = [
    [["policies"], /only the server mode is supported: pass --server/],
    [["--server", "--addr", "8181", "policies"], /--addr: '8181' is not host:port/],
    [["--server", "--addr", "localhost:70000", "policies"], /--addr: port 70000 is out of range/],
    [["--server", "--log-level", "trace", "policies"], /--log-level: 'trace' is not one of/],
    [["--server", "--set", "server.decoding.max_length=-1", "policies"], /--set server.decoding.max_length: should be a positive number of bytes/],
    [["--server", "--set", "decision_logs.console=true", "policies"], /--set: 'decision_logs.console' is not supported/],
    [["--server", "--set", "default_decision=/", "policies"], /--set default_decision: a path such as \/system\/main/],
  ];
  for (const [argv, message] of cases) {
    it(`refuses ${argv.join(" ")}`, async () => {
      const r = await run(argv);
      expect(r.code).to.equal(2);
      expect(r.err).to.match(/cli_usage_error/).and.match(message);
    });
  }

  it("--help describes the flags", async () => {
    const r = await run(["--help"]);
    expect(r.code).to.equal(0);
    expect(r.out).to.include("--addr").and.include("--bundle").and.include("server.decoding.max_length");
  });
});
