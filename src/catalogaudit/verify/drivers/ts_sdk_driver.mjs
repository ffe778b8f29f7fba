// The ts-sdk verify driver's child process: the npm @modelcontextprotocol/sdk Client lists
// every catalog it is given, through StdioClientTransport (the client spawns the server), or
// StreamableHTTPClientTransport for a target with a "url" (verify --transport http).
//
// Usage: node ts_sdk_driver.mjs NODE_MODULES < job.json
//   job: {"timeout": S, "targets": [{"argv": [...] or "url": URL, "listings": [...]}, ...]}
// Prints one JSON array: per target, per listing {"listing", "items"} or {"listing", "error"}.
// The SDK is imported from NODE_MODULES (the --client-path), never from a bundled copy, so the
// verdict is that release's zod validation.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

import { runJob } from "./ts_sdk_job.mjs";

const modules = process.argv[2];
const sdk = join(modules, "@modelcontextprotocol", "sdk");
const version = JSON.parse(readFileSync(join(sdk, "package.json"), "utf8")).version;
if (process.argv[3] === "--version") {
  process.stdout.write(version + "\n");
  process.exit(0);
}
const { Client } = await import(pathToFileURL(join(sdk, "dist/esm/client/index.js")).href);
const { StdioClientTransport } = await import(
  pathToFileURL(join(sdk, "dist/esm/client/stdio.js")).href
);
const { StreamableHTTPClientTransport } = await import(
  pathToFileURL(join(sdk, "dist/esm/client/streamableHttp.js")).href
);

await runJob({
  client: () => new Client({ name: "catalogaudit-verify", version: "0" }),
  StdioClientTransport,
  StreamableHTTPClientTransport,
  listOptions: {},
});
