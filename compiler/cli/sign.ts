// `regoc sign <bundle dir> --signing-key KEY [--signing-alg ALG] [--claims-file FILE]
// [-o PATH]`: writes the `.signatures.json` of a bundle directory, as `opa sign --bundle` does:
// every file of the directory (but an existing .signatures.json) with its SHA-256 digest
// (data.json, data.yaml and .manifest in canonical form), in a JWT signed with the key.
// The file goes to PATH/.signatures.json (default: the current directory, as OPA).
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { Header } from "tar";
import { writeModuleSync } from "../codegen/loader.js";
import type { CliCommand } from "../cli.js";
import { readBundleDir } from "./sources.js";
import { fileError, flagError, usageError } from "./errors.js";

export interface SigningFlags {
  "signing-key"?: string | undefined;
  "signing-alg"?: string | undefined;
  "claims-file"?: string | undefined;
}

/** The parseArgs options shared by `regoc sign` and `regoc build --target bundle`. */
export const SIGNING_OPTIONS = {
  "signing-key": { type: "string" },
  "signing-alg": { type: "string" },
  "claims-file": { type: "string" },
} as const;

/** The `.signatures.json` text for the files, with the flags' key (OPA's rule: PEM text, else a
 * file's content, else the text itself, an HMAC secret). */
export async function signFiles(files: ReadonlyMap<string, Buffer>, flags: SigningFlags): Promise<string> {
  const { signBundle } = await import("../../runtime/bundle/signatures.js");
  const raw = flags["signing-key"];
  if (raw === undefined) throw usageError("--signing-key is required");
  const key = raw.startsWith("-----BEGIN") || !existsSync(raw) ? raw : readFileSync(raw, "utf8");
  let claims: Record<string, unknown> | undefined;
  if (flags["claims-file"] !== undefined) {
    try {
      claims = JSON.parse(readFileSync(flags["claims-file"], "utf8")) as Record<string, unknown>;
    } catch (e) {
      throw flagError(`--claims-file ${flags["claims-file"]}`, (e as Error).message);
    }
    if (typeof claims !== "object" || claims === null || Array.isArray(claims)) throw flagError(`--claims-file ${flags["claims-file"]}`, "must hold a JSON object");
  }
  return signBundle(files, { key, algorithm: flags["signing-alg"] ?? "RS256", ...(claims ? { claims } : {}) });
}

const USAGE =
  "usage: regoc sign <bundle dir> --signing-key KEY [--signing-alg ALG] [--claims-file FILE] [-o PATH]\n" +
  "  --signing-key     a PEM private key (file or text), or an HMAC secret for HS256/384/512\n" +
  "  --signing-alg     the JWS algorithm (default RS256)\n" +
  "  --claims-file     a JSON object of extra claims (scope, iss, keyid: keyid also becomes the header's kid)\n" +
  "  -o, --output-file-path  where .signatures.json goes (default: the current directory)\n" +
  "  --bundle          accepted for OPA's command line: the path is always a bundle directory";

const command: CliCommand = {
  summary: "write the .signatures.json of a bundle directory (as opa sign --bundle)",
  usage: USAGE,
  async run(argv) {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { ...SIGNING_OPTIONS, "output-file-path": { type: "string", short: "o", default: "." }, bundle: { type: "boolean", short: "b" } },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length !== 1) throw usageError(USAGE.split("\n")[0]!);
    const dir = positionals[0]!;
    if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) throw fileError(dir, "not a bundle directory");
    const text = await signFiles(readBundleDir(dir), values);
    const out = join(values["output-file-path"], ".signatures.json");
    writeModuleSync(out, text);
    process.stdout.write(`wrote ${out}\n`);
    return 0;
  },
};

export default command;

/** A bundle archive (tar.gz) of the files by bundle path, in path order, with fixed times so the
 * same files give the same bytes. */
export function bundleArchive(files: ReadonlyMap<string, Buffer>): Buffer {
  const blocks: Buffer[] = [];
  for (const path of [...files.keys()].sort()) {
    const body = files.get(path)!;
    const header = Buffer.alloc(512);
    new Header({ path: path.slice(1), mode: 0o644, size: body.length, mtime: new Date(0), type: "File" }).encode(header, 0);
    blocks.push(header, body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(blocks));
}
