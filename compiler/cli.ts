// `regoc <command> [args...]`: one table of commands, each in its own file under cli/.
// A command returns its exit code; usage mistakes are RegoErrors with code cli_usage_error.
import { pathToFileURL } from "node:url";
import { RegoError } from "../runtime/errors.js";

export interface CliCommand {
  /** One line for `regoc help`. */
  summary: string;
  /** The synopsis and options, printed by `regoc <command> --help`. */
  usage?: string;
  run(argv: string[]): Promise<number>;
}

type Loader = () => Promise<CliCommand>;

/** The commands, in the order `regoc help` lists them. Each file default-exports a CliCommand. */
const commands: Record<string, Loader> = {
  // one line per command, e.g.  parse: async () => (await import("./cli/parse.js")).default,
  build: async () => (await import("./cli/build.js")).default,
  parse: async () => (await import("./cli/parse.js")).default,
  compliance: async () => (await import("./cli/compliance.js")).default,
  plan: async () => (await import("./cli/plan.js")).default,
  eval: async () => (await import("./cli/eval.js")).default,
  check: async () => (await import("./cli/check.js")).default,
  builtins: async () => (await import("./cli/builtins.js")).default,
  test: async () => (await import("./cli/test.js")).default,
  sign: async () => (await import("./cli/sign.js")).default,
  run: async () => (await import("./cli/run.js")).default,
};

export async function main(argv: string[]): Promise<number> {
  // A closed pipe (`regoc ... | head`) ends the command quietly.
  process.stdout.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code === "EPIPE") process.exit(0);
    throw e;
  });
  const [name, ...rest] = argv;
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    await printHelp();
    return name === undefined ? 2 : 0;
  }
  if (name === "--version" || name === "version") {
    process.stdout.write(`regoc ${await packageVersion()}\n`);
    return 0;
  }
  const load = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!load) {
    process.stderr.write(`regoc: unknown command '${name}' (try 'regoc help')\n`);
    return 2;
  }
  let command: CliCommand;
  try {
    command = await load();
  } catch (e) {
    process.stderr.write(`regoc: command '${name}' is not available in this build: ${(e as Error).message}\n`);
    return 2;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    process.stdout.write(`${command.usage ?? `usage: regoc ${name} [args...]`}\n\n${command.summary}\n`);
    return 0;
  }
  try {
    return await command.run(rest);
  } catch (e) {
    if (e instanceof RegoError) {
      process.stderr.write(`${e.toString()}\n`);
      return e.code === "cli_usage_error" ? 2 : 1;
    }
    const code = (e as { code?: unknown })?.code;
    if (typeof code === "string" && code.startsWith("ERR_PARSE_ARGS")) {
      process.stderr.write(`regoc ${name}: ${(e as Error).message.split(". ")[0]} (see 'regoc ${name} --help')\n`);
      return 2;
    }
    if (typeof code === "string" && /^E[A-Z]+$/.test(code)) {
      // A file system error (ENOENT, EACCES, EISDIR...): the message names the path.
      process.stderr.write(`regoc ${name}: ${(e as Error).message}\n`);
      return 1;
    }
    throw e;
  }
}

/** The version in regoc's package.json (one level up from compiler/cli.ts, two from dist/compiler/cli.js). */
async function packageVersion(): Promise<string> {
  const { readFileSync, existsSync } = await import("node:fs");
  const candidates = ["../package.json", "../../package.json"].map((p) => new URL(p, import.meta.url));
  const file = candidates.find((u) => existsSync(u) && (JSON.parse(readFileSync(u, "utf8")) as { name?: unknown }).name === "regoc");
  if (!file) return "(unknown version)";
  return String((JSON.parse(readFileSync(file, "utf8")) as { version?: unknown }).version);
}

async function printHelp(): Promise<void> {
  const lines = ["usage: regoc <command> [args...]   (regoc --version: the version)", "", "commands:"];
  for (const [name, load] of Object.entries(commands)) {
    const summary = await load().then(
      (c) => c.summary,
      () => "(not available)",
    );
    lines.push(`  ${name.padEnd(12)}${summary}`);
  }
  process.stdout.write(lines.join("\n") + "\n");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(`regoc: internal error: ${(e as Error)?.stack ?? String(e)}\n`);
      process.exitCode = 3;
    },
  );
}
