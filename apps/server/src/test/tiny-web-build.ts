import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { precompress } from "../../../../scripts/precompress.mjs";

/**
 * A web build of the smallest shape React Router's request handler accepts: every path renders the
 * same 4 KB page. Its client directory holds one script and one stylesheet, compressed as
 * `npm run build` compresses them.
 */
export function writeWebBuild(buildDir: string) {
  const route = (id: string, extra: object) => ({
    id,
    hasAction: false,
    hasLoader: false,
    hasClientAction: false,
    hasClientLoader: false,
    hasClientMiddleware: false,
    hasErrorBoundary: false,
    module: `/assets/${id}.js`,
    imports: [],
    ...extra,
  });
  const assets = {
    entry: { module: "/assets/entry.js", imports: [] },
    routes: { root: route("root", { path: "" }), page: route("page", { parentId: "root", path: "*" }) },
    url: "/assets/manifest.js",
    version: "test",
  };
  mkdirSync(join(buildDir, "server"), { recursive: true });
  writeFileSync(
    join(buildDir, "server", "index.js"),
    `export const assets = ${JSON.stringify(assets)};
export const assetsBuildDirectory = "build/client";
export const basename = "/";
export const future = {};
export const ssr = true;
export const isSpaMode = false;
export const prerender = [];
export const routeDiscovery = { mode: "lazy", manifestPath: "/__manifest" };
export const publicPath = "/";
export const allowedActionOrigins = false;
export const entry = { module: { default: (_request, status, headers) => {
  headers.set("content-type", "text/html; charset=utf-8");
  return new Response("<!doctype html><title>Page</title>" + "<p>A paragraph of the page.</p>".repeat(120), { status, headers });
} } };
export const routes = {
  root: { id: "root", path: "", module: { default: () => null } },
  page: { id: "page", parentId: "root", path: "*", module: { default: () => null } },
};
`,
  );
  const assetsDir = join(buildDir, "client", "assets");
  mkdirSync(assetsDir, { recursive: true });
  writeFileSync(
    join(assetsDir, "app-1a2b3c.js"),
    `export const lines = [${'"a line of code",'.repeat(300)}];\n`,
  );
  writeFileSync(join(assetsDir, "app-1a2b3c.css"), ".rule { color: red; margin: 0 }\n".repeat(100));
  precompress(join(buildDir, "client"));
}
