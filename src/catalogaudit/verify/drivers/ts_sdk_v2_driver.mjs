// The ts-sdk-v2 verify driver's child process: the npm @modelcontextprotocol/client (the TS SDK
// v2) Client lists every catalog it is given, through StdioClientTransport (the client spawns
// the server), or StreamableHTTPClientTransport for a target with a "url" (verify --transport
// http), with versionNegotiation mode "auto": server/discover first, the legacy initialize as
// the fallback (the SDK's default, "legacy", never sends discover).
//
// Usage: node ts_sdk_v2_driver.mjs NODE_MODULES < job.json
//   job: {"timeout": S, "targets": [{"argv": [...] or "url": URL, "listings": [...]}, ...]}
// Prints one JSON array: per target, per listing {"listing", "items"} or {"listing", "error"}.
// The package is imported from NODE_MODULES (the --client-path), never from a bundled copy, so
// the verdict is that release's zod validation.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

import { runJob } from "./ts_sdk_job.mjs";

const modules = process.argv[2];
const pkg = join(modules, "@modelcontextprotocol", "client");
const version = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8")).version;
if (process.argv[3] === "--version") {
  process.stdout.write(version + "\n");
  process.exit(0);
}
const { Client, StreamableHTTPClientTransport } = await import(
  pathToFileURL(join(pkg, "dist/index.mjs")).href
);
const { StdioClientTransport } = await import(pathToFileURL(join(pkg, "dist/stdio.mjs")).href);

await runJob({
  client: () =>
    new Client(
      { name: "catalogaudit-verify", version: "0" },
      { versionNegotiation: { mode: "auto" } },
    ),
  StdioClientTransport,
  StreamableHTTPClientTransport,
  // Every list call goes to the server: the SDK's cache would answer a repeated one itself.
  listOptions: { cache: "bypass" },
});
