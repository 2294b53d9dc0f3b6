import { createServer } from "node:http";
import { createRequestHandler } from "react-router";
import { loadConfig, publicConfigOf } from "../apps/server/src/config.ts";
import { DEFAULT_BUILD_DIR, loadServerBuild, readBuildInfo } from "../apps/server/src/http/web.ts";

/**
 * The ceiling of `bench/cold-pages.ts`: the same production web build rendering the same pages, with
 * every API answer its loaders ask for already in memory. What is left is React Router's document
 * request and React's server render: a bare render of the same HTML.
 *
 *   node --import tsx bench/bare-render.ts <port> <upstream origin>
 *
 * A loader's first request for an API URL is fetched from the real server at `<upstream origin>` and
 * kept; every later one is answered from memory. The bench renders each page once to fill the memory,
 * then measures.
 */
const [port, upstream] = process.argv.slice(2);
if (!port || !upstream) throw new Error("usage: bare-render.ts <port> <upstream origin>");

const RECORDED_ORIGIN = "http://recorded.invalid";
const realFetch = globalThis.fetch.bind(globalThis);
const recorded = new Map<string, { status: number; type: string; body: string }>();

globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  if (url.origin !== RECORDED_ORIGIN) return realFetch(input, init);
  const key = `${url.pathname}${url.search}`;
  let answer = recorded.get(key);
  if (!answer) {
    const response = await realFetch(`${upstream}${key}`);
    answer = {
      status: response.status,
      type: response.headers.get("content-type") ?? "application/json",
      body: await response.text(),
    };
    recorded.set(key, answer);
  }
  return new Response(answer.body, { status: answer.status, headers: { "content-type": answer.type } });
};

const config = loadConfig({ ...process.env, SEED: "off" });
const build = await loadServerBuild(DEFAULT_BUILD_DIR);
const handleRequest = createRequestHandler(build, "production");
const loadContext = {
  publicConfig: publicConfigOf(config, readBuildInfo(DEFAULT_BUILD_DIR).id),
  apiOrigin: RECORDED_ORIGIN,
  dataVersion: "bench",
};

createServer(async (incoming, outgoing) => {
  const response = await handleRequest(
    new Request(`http://127.0.0.1:${port}${incoming.url}`, { headers: { accept: "text/html" } }),
    loadContext,
  );
  const body = Buffer.from(await response.arrayBuffer());
  outgoing.writeHead(response.status, { "content-type": "text/html", "content-length": body.length });
  outgoing.end(body);
}).listen(Number(port), "127.0.0.1");

// A normal exit on the bench's signal (a --cpu-prof run writes its profile then).
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(0));
