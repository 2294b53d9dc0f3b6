import Fastify from "fastify";

/**
 * The ceiling: a bare Fastify server answering each benchmarked path with exactly the bytes and
 * content type the real server gave for it. Usage: node --import tsx bench/ceiling.ts <port> <fixtures.json>
 */
const [port, fixturesFile] = process.argv.slice(2);
const { readFileSync } = await import("node:fs");
const fixtures = JSON.parse(readFileSync(fixturesFile!, "utf8")) as Record<
  string,
  { type: string; body: string }
>;

const app = Fastify();
for (const [path, fixture] of Object.entries(fixtures)) {
  app.get(path, (_request, reply) => reply.type(fixture.type).send(fixture.body));
}
await app.listen({ port: Number(port), host: "127.0.0.1" });
process.send?.("ready");
