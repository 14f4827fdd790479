// Debugging aid: prints a compliance case (its Rego), the TypeScript generated from its plan and
// the result of evaluating it next to the expected one.
//   npx tsx --conditions=regoc-source scripts/plan-show.ts "<note or plan substring>" [index]
import { readFileSync, readdirSync } from "node:fs";
import { generateTypeScript, compilePlan } from "regoc/compiler";
import { toJSON } from "regoc";
const [pat, idx] = [process.argv[2]!, Number(process.argv[3] ?? 0)];
const root = process.env.REGOC_COMPLIANCE ?? new URL("../../shared/compliance/v1", import.meta.url).pathname;
let found = 0;
for (const cat of readdirSync(root).sort()) for (const f of readdirSync(`${root}/${cat}`).sort()) {
  for (const c of JSON.parse(readFileSync(`${root}/${cat}/${f}`, "utf8")).cases) {
    if (!c.note.includes(pat) && !JSON.stringify(c.plan).includes(pat)) continue;
    if (found++ !== idx) continue;
    console.log(c.note, c.modules.join("\n---\n"));
    const g = generateTypeScript(c.plan);
    console.log(g.code);
    const pq = await compilePlan(c.plan);
    try {
      const rs = pq.evaluate({ input: c.input, data: c.data });
      console.log("got", JSON.stringify(rs.map((r) => toJSON(r))), "want", JSON.stringify(c.want_plan_result), c.want_error_code ?? "");
    } catch (e) { console.log("error", e, "want", JSON.stringify(c.want_plan_result), c.want_error_code); }
    process.exit(0);
  }
}
