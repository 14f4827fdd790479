// examples/filtering: GET /documents answers, for each caller, exactly the documents a full
// evaluation of the policy allows with that document as input.documents, masks applied.
import { expect } from "chai";
import { startFilteringServer, DOCUMENTS } from "../../examples/filtering/server.js";

describe("examples/filtering: GET /documents", function () {
  this.timeout(60_000);
  let app: Awaited<ReturnType<typeof startFilteringServer>>;
  before(async () => {
    app = await startFilteringServer();
  });
  after(async () => {
    app.server.close();
    await app.db.close();
  });

  for (const user of ["alice", "bob", "carol", "dave", "nobody"]) {
    it(`lists what ${user} may read`, async () => {
      const res = await fetch(`${app.url}/documents`, { headers: { "x-user": user } });
      expect(res.status).to.equal(200);
      const got = (await res.json()) as { id: number; reviewer: string | null }[];
      const allowed: number[] = [];
      for (const d of DOCUMENTS) {
        const r = await app.engine.evaluate("data.documents.include", { user, documents: d });
        if (r.length > 0) allowed.push(d.id);
      }
      expect(got.map((d) => d.id)).to.deep.equal(allowed);
      const admin = user === "alice";
      for (const d of got) expect(d.reviewer === "***").to.equal(!admin);
    });
  }

  it("bob reads his own draft and his team's documents that are not drafts", async () => {
    const res = await fetch(`${app.url}/documents`, { headers: { "x-user": "bob" } });
    expect(((await res.json()) as { id: number }[]).map((d) => d.id)).to.deep.equal([1, 2]);
  });
});
