// Data filtering example: `GET /documents` lists only the documents the caller may read, straight
// from the database. The policy (documents.rego) is compiled into a SQL WHERE clause for each
// request by Engine.compileFilter, so the database returns only the readable rows; the mask rule
// hides columns the caller may not see. The caller is the `x-user` header (a real application
// takes it from its authentication).
//
//   npx tsx examples/filtering/server.ts      serves on PORT (default 8080)
//   curl -H 'x-user: bob' localhost:8080/documents
import { readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { fileURLToPath, pathToFileURL } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import express from "express";
import { Engine } from "regoc";

const here = fileURLToPath(new URL(".", import.meta.url));

export interface Document {
  id: number;
  tenant: string;
  owner: string;
  title: string;
  draft: boolean | null;
  reviewer: string | null;
}

export const DOCUMENTS: Document[] = [
  { id: 1, tenant: "acme", owner: "alice", title: "Roadmap", draft: false, reviewer: "carol" },
  { id: 2, tenant: "acme", owner: "bob", title: "Budget draft", draft: true, reviewer: null },
  { id: 3, tenant: "acme", owner: "carol", title: "Hiring plan", draft: null, reviewer: "alice" },
  { id: 4, tenant: "acme", owner: "alice", title: "Board notes", draft: true, reviewer: "bob" },
  { id: 5, tenant: "globex", owner: "dave", title: "Launch", draft: false, reviewer: null },
];

type Masks = Record<string, Record<string, { replace?: { value: unknown } }>>;

export async function startFilteringServer(port = 0): Promise<{ url: string; server: Server; db: PGlite; engine: Engine }> {
  const db = await PGlite.create();
  await db.exec("CREATE TABLE documents (id INTEGER PRIMARY KEY, tenant TEXT, owner TEXT, title TEXT, draft BOOLEAN, reviewer TEXT)");
  for (const d of DOCUMENTS) {
    await db.query("INSERT INTO documents VALUES ($1, $2, $3, $4, $5, $6)", [d.id, d.tenant, d.owner, d.title, d.draft, d.reviewer]);
  }
  const engine = await Engine.create({ modules: { "documents.rego": readFileSync(`${here}documents.rego`, "utf8") } });
  engine.loadData("/", JSON.parse(readFileSync(`${here}data.json`, "utf8")));

  const app = express();
  app.get("/documents", async (req, res, next) => {
    try {
      const filter = await engine.compileFilter("documents/include", { input: { user: req.get("x-user") ?? "" }, target: "postgresql" });
      if (!filter.result) {
        res.json([]); // no document can be read
        return;
      }
      const { query, masks } = filter.result as { query: string; masks?: Masks };
      const rows = (await db.query<Document>(`SELECT * FROM documents ${query} ORDER BY id`)).rows;
      const hidden = masks?.["documents"] ?? {};
      res.json(rows.map((row) => ({ ...row, ...Object.fromEntries(Object.entries(hidden).flatMap(([col, m]) => (m.replace ? [[col, m.replace.value]] : []))) })));
    } catch (e) {
      next(e);
    }
  });
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(port, "127.0.0.1", () => resolve(s));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, db, engine };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { url } = await startFilteringServer(Number(process.env["PORT"] ?? 8080));
  process.stdout.write(`listening on ${url}: curl -H 'x-user: bob' ${url}/documents\n`);
}
