// What the ts-sdk and ts-sdk-v2 verify drivers share: read a job on stdin, list every catalog
// of it with a fresh Client of the SDK under test, print one JSON array (see either driver).
// Each driver imports its own package and hands this module the classes and options it uses.
import { readFileSync } from "node:fs";

const METHODS = {
  tools: ["listTools", "tools"],
  prompts: ["listPrompts", "prompts"],
  resources: ["listResources", "resources"],
  resourceTemplates: ["listResourceTemplates", "resourceTemplates"],
};

function message(err) {
  return `${err?.name ?? "Error"}: ${String(err?.message ?? err).replace(/\s+/g, " ").trim()}`;
}

async function one(sdk, target, timeoutMs) {
  let transport;
  if (target.url) {
    transport = new sdk.StreamableHTTPClientTransport(new URL(target.url));
  } else {
    const [command, ...args] = target.argv;
    transport = new sdk.StdioClientTransport({ command, args, stderr: "ignore" });
  }
  const client = sdk.client();
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
            ...sdk.listOptions,
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

// sdk: {client: () => Client, StdioClientTransport, StreamableHTTPClientTransport,
// listOptions: extra options of every list call}.
export async function runJob(sdk) {
  const job = JSON.parse(readFileSync(0, "utf8"));
  const timeoutMs = 1000 * (job.timeout ?? 60);
  const results = [];
  for (const target of job.targets) results.push(await one(sdk, target, timeoutMs));
  process.stdout.write(JSON.stringify(results) + "\n");
}
