// Rewrites the "## Builtins" section of README.md from `regoc builtins --json` (the capabilities
// and the runtime registry) and the deliberate differences from OPA noted below, which restate the
// header comments of the category files. Only that section is touched (it runs up to the next
// `## ` heading, or the end of the file).
//   node --conditions=regoc-source --import tsx scripts/builtins-readme.ts
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { builtinReports } from "../compiler/cli/builtins.js";
import { OPA_COMPAT_VERSION } from "../runtime/builtins/opa.js";

/** Where regoc deliberately (or unavoidably) differs from OPA, per category. */
const NOTES: Readonly<Record<string, string>> = {
  encoding: "decoded bytes that are not UTF-8 become U+FFFD (a JS string cannot hold raw bytes; OPA keeps them)",
  strings: "UTF-16 strings: a lone surrogate stands for U+FFFD, the character OPA's JSON decoding would give",
  yaml: "`yaml.unmarshal` refuses documents nested (directly or through aliases) deeper than 500 levels (go-yaml: 10000), since the `yaml` package composes recursively",
  time: "zones and their abbreviations come from the IANA data in Node's ICU (`Intl`); abbreviations are the English locales' (most match Go's: PST, CET, IST...; otherwise the numeric form); beyond ±275,000 years there is no zone data",
  net: "`net.cidr_expand` refuses networks of more than 2^20 addresses (OPA builds the set until cancelled); `net.lookup_ip_addr` (async) uses the system resolver (node:dns)",
  http: "`http.send` is async (only plans that call it get async entrypoints); Node's HTTP client (fetch in browsers, without TLS options); no `allow_net` capability or distributed tracing; the cross-evaluation cache is process-wide (1000 entries)",
  providers: "a time given as an exponent literal (`-1e9`) is accepted: numbers do not keep their source text (OPA refuses it)",
  jsonschema: "remote `$ref`s are not fetched; where OPA walks an object's keys in Go's random map order, errors follow the document's order (the schema's for `properties`); formats are checked by ajv-formats",
  opa: "`opa.runtime()` returns `{}` (OPA as a library) unless the application passes the `runtime` evaluation option: no environment variables reach a policy by default",
};

function section(): string {
  const reports = builtinReports();
  const byCategory = new Map<string, string[]>();
  for (const r of reports) {
    if (r.status !== "implemented") continue;
    const c = r.category ?? "custom";
    byCategory.set(c, [...(byCategory.get(c) ?? []), r.name]);
  }
  const count = (s: string) => reports.filter((r) => r.status === s).length;
  const lines = [
    "## Builtins",
    "",
    `Every builtin of OPA ${OPA_COMPAT_VERSION}'s capabilities: ${count("implemented")} implemented, ${count("compile-time")} compiled into plan statements (\`eq\`, \`assign\`), ${count("not implemented")} not implemented, of ${reports.length}. ` +
      "Each works as in OPA: argument checks with OPA's messages (`eval_type_error`), OPA's builtin errors (`eval_builtin_error`, undefined unless strict), " +
      "Go's semantics where OPA inherits them (RE2 regexes, Go's fmt, time layouts, JSON and base64 codecs, YAML 1.1), one value per evaluation for " +
      "`time.now_ns`, `rand.intn`, `uuid.rfc4122` and `http.send`. `regoc builtins [--json]` lists them; this table is written by " +
      "`scripts/builtins-readme.ts`.",
    "",
    "| category | implemented | differences from OPA |",
    "|---|---|---|",
  ];
  for (const [c, names] of [...byCategory].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    lines.push(`| ${c} | ${names.length} | ${NOTES[c] ?? ""} |`);
  }
  const missing = reports.filter((r) => r.status === "not implemented");
  if (missing.length > 0) {
    lines.push("", "Not implemented:", "", ...missing.map((r) => `- \`${r.name}\`: ${r.reason ?? ""}`));
  }
  return `${lines.join("\n")}\n`;
}

const readme = fileURLToPath(new URL("../README.md", import.meta.url));
const text = readFileSync(readme, "utf8");
const start = text.search(/^## Builtins$/m);
let out: string;
if (start < 0) out = `${text.trimEnd()}\n\n${section()}`;
else {
  const rest = text.slice(start + 1).search(/^## /m);
  const end = rest < 0 ? text.length : start + 1 + rest;
  out = `${text.slice(0, start)}${section()}${end < text.length ? `\n${text.slice(end)}` : ""}`;
}
writeFileSync(readme, out);
