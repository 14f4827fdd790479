// A client of the bundle server: polls every 1–2 s, prints each activation and failure, and asks
// two decisions after each activation. Ctrl-C stops it (client.close(): nothing left running).
//
//   BUNDLE_TOKEN=dev-token node --conditions=regoc-source --import tsx examples/bundle/client.ts
import { BundleClient } from "regoc";

const client = await BundleClient.create(`
services:
  example:
    url: http://127.0.0.1:${process.env.PORT ?? 8181}
    credentials:
      bearer:
        token: "\${BUNDLE_TOKEN}"
bundles:
  authz:
    service: example
    resource: bundles/authz.tar.gz
    polling:
      min_delay_seconds: 1
      max_delay_seconds: 2
`);

client.on("failed", (error) => console.error(`bundle failed (the last good one keeps serving): ${String(error)}`));
client.on("activated", async (status) => {
  console.log(`activated revision ${JSON.stringify(status.revision)}`);
  for (const user of ["alice", "bob"]) {
    const { result } = await client.decide({ path: "authz/allow", input: { user } });
    console.log(`  authz/allow for ${user}: ${JSON.stringify(result)}`);
  }
});

process.once("SIGINT", () => void client.close().then(() => console.log("stopped")));
