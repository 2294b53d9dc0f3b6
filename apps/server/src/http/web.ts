import { existsSync, readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import fastifyStatic from "@fastify/static";
import type { PublicConfig } from "@pressguard/domain";
import { createRequestListener } from "@react-router/node";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ServerBuild } from "react-router";

/** `npm run build` writes the React Router build here, at the repository root. */
export const DEFAULT_BUILD_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "../../../../build");

export interface WebOptions {
  mode: "production" | "development";
  /** The React Router build directory (build/client + build/server). */
  buildDir: string;
  publicConfig: PublicConfig;
}

export interface BuildInfo {
  id: string;
  timestamp: number;
}

/** The build stamp written by scripts/ensure-build.mjs; a development server reports "development". */
export function readBuildInfo(buildDir: string): BuildInfo {
  const file = join(buildDir, "build-info.json");
  if (!existsSync(file)) return { id: "development", timestamp: 0 };
  return JSON.parse(readFileSync(file, "utf8")) as BuildInfo;
}

/**
 * Serves the React Router application for every path the API does not own: static assets from
 * build/client, everything else rendered on the server by the React Router request listener
 * (TOOLCHAIN.md: the Express adapter does not work under Fastify).
 */
export async function registerWeb(app: FastifyInstance, options: WebOptions) {
  const apiOrigin = () => {
    const address = app.server.address() as AddressInfo | null;
    const host =
      !address || address.address === "::" || address.address === "0.0.0.0" ? "127.0.0.1" : address.address;
    return `http://${host.includes(":") ? `[${host}]` : host}:${address?.port ?? 0}`;
  };
  const getLoadContext = () => ({ publicConfig: options.publicConfig, apiOrigin: apiOrigin() });

  let build: ServerBuild | (() => Promise<ServerBuild>);
  if (options.mode === "development") {
    const { createServer } = await import("vite");
    const vite = await createServer({ server: { middlewareMode: true }, appType: "custom" });
    await app.register(import("@fastify/middie"));
    app.use(vite.middlewares);
    app.addHook("onClose", () => vite.close());
    build = () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>;
  } else {
    const serverEntry = join(options.buildDir, "server", "index.js");
    if (!existsSync(serverEntry)) {
      throw new Error(`No web build at ${serverEntry}: run \`npm run build\` (npm start does it for you).`);
    }
    build = (await import(pathToFileURL(serverEntry).href)) as ServerBuild;
    await app.register(fastifyStatic, {
      root: join(options.buildDir, "client"),
      wildcard: false,
      // Hashed file names never change: cache them for a year. Other files revalidate.
      setHeaders(reply, path) {
        const immutable = path.includes(`${join(options.buildDir, "client", "assets")}`);
        reply.header(
          "cache-control",
          immutable ? "public, max-age=31536000, immutable" : "public, max-age=3600",
        );
      },
    });
  }

  const listener = createRequestListener({ build, getLoadContext, mode: options.mode });

  await app.register(async (web) => {
    // React Router reads the raw request body itself: hand it over unparsed.
    web.removeAllContentTypeParsers();
    web.addContentTypeParser("*", (_request, _payload, done) => done(null));
    const render = async (request: FastifyRequest, reply: FastifyReply) => {
      reply.hijack();
      await listener(request.raw, reply.raw);
    };
    web.all("/", render);
    web.all("/*", render);
  });
}
