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

const METHODS = {
  tools: ["listTools", "tools"],
  prompts: ["listPrompts", "prompts"],
  resources: ["listResources", "resources"],
  resourceTemplates: ["listResourceTemplates", "resourceTemplates"],
};

function message(err) {
  return `${err?.name ?? "Error"}: ${String(err?.message ?? err).replace(/\s+/g, " ").trim()}`;
}

async function one(target, timeoutMs) {
  let transport;
  if (target.url) {
    transport = new StreamableHTTPClientTransport(new URL(target.url));
  } else {
    const [command, ...args] = target.argv;
    transport = new StdioClientTransport({ command, args, stderr: "ignore" });
  }
  const client = new Client(
    { name: "catalogaudit-verify", version: "0" },
    { versionNegotiation: { mode: "auto" } },
  );
  const out = [];
  try {
    await client.connect(transport, { timeout: timeoutMs });
    for (const name of target.listings) {
      const [method, attr] = METHODS[name];
      const items = [];
      try {
        // Every cursor the server gives is sent back, "" included (a loop on its truthiness
        // would ask for the first page again, forever).
        let cursor;
        do {
          const page = await client[method](cursor === undefined ? undefined : { cursor }, {
            timeout: timeoutMs,
            cache: "bypass",
          });
          items.push(...page[attr]);
          cursor = page.nextCursor;
        } while (cursor !== undefined && cursor !== null);
        out.push({ listing: name, items });
      } catch (err) {
        out.push({ listing: name, error: message(err) });
      }
    }
  } catch (err) {
    const done = new Set(out.map((o) => o.listing));
    for (const name of target.listings) {
      if (!done.has(name)) out.push({ listing: name, error: message(err) });
    }
  } finally {
    await client.close().catch(() => {});
  }
  return out;
}

const job = JSON.parse(readFileSync(0, "utf8"));
const timeoutMs = 1000 * (job.timeout ?? 60);
const results = [];
for (const target of job.targets) results.push(await one(target, timeoutMs));
process.stdout.write(JSON.stringify(results) + "\n");
