import Fastify from "fastify";

/**
 * The ceiling: a bare Fastify server answering each benchmarked method and path with exactly the
 * bytes the real server gave for it: its body and its headers (security headers, ETag, cookies…),
 * all but those Node writes itself for every answer (date, length, connection). A POST body is
 * parsed as JSON, like the app's. Usage: node --import tsx bench/ceiling.ts <port> <fixtures.json>
 */
const [port, fixturesFile] = process.argv.slice(2);
const { readFileSync } = await import("node:fs");
const fixtures = JSON.parse(readFileSync(fixturesFile!, "utf8")) as {
  method: "GET" | "POST";
  path: string;
  type: string;
  headers: Record<string, string | string[]>;
  body: string;
}[];

/**
 * Scenarios may share a method and path (login in token and cookie mode): the bench names the
 * fixture it wants in `x-bench-fixture`, its index in the fixtures file.
 */
const app = Fastify();
const routes = new Set<string>();
// A scenario's query string is not part of the route: the fixture header tells them apart.
const routeOf = (path: string) => path.split("?")[0] ?? path;
for (const { method, path } of fixtures) {
  const url = routeOf(path);
  if (routes.has(`${method} ${url}`)) continue;
  routes.add(`${method} ${url}`);
  app.route({
    method,
    url,
    handler: (request, reply) => {
      const wanted = fixtures[Number(request.headers["x-bench-fixture"])];
      const fixture = wanted?.method === method && routeOf(wanted.path) === url ? wanted : undefined;
      if (!fixture) return reply.status(400).send("unknown x-bench-fixture");
      return reply.headers(fixture.headers).type(fixture.type).send(fixture.body);
    },
  });
}
await app.listen({ port: Number(port), host: "127.0.0.1" });
process.send?.("ready");
