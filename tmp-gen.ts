import { planRegoDetailed, generateTypeScript } from "./compiler/index.js";
import { loadCases } from "./compiler/compliance/cases.js";
const [note, from] = process.argv.slice(2);
for (const c of loadCases("/work/shared/compliance")) {
  if (c.note !== note) continue;
  if (from === "plan") { console.log(generateTypeScript(c.plan).code); break; }
  const modules: Record<string, string> = {};
  (c.modules ?? []).forEach((m, i) => (modules[`module-${i}.rego`] = m));
  const p = planRegoDetailed({ modules, query: c.query!, queryName: "eval" });
  if (process.env.MODS) console.log(c.modules?.join("\n----\n"), "\n", c.query);
  console.log(generateTypeScript(p.plan, { localNames: p.localNames }).code);
  break;
}
