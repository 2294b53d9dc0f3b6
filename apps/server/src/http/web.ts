import { AsyncLocalStorage } from "node:async_hooks";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import fastifyStatic from "@fastify/static";
import {
  type ContentSecurityPolicyOptions,
  type PageReader,
  type PublicConfig,
  TOKEN_STORAGE_KEY,
} from "@pressguard/domain";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { createRequestHandler, type ServerBuild } from "react-router";
import { clientInfoOf } from "./access.ts";
import { VISITOR_ADDRESS_HEADER } from "./api-rate-limit.ts";
import type { ErrorReporter } from "./error-reporting.ts";
import { etagOf, type ResponseStore, sendStored } from "./http-cache.ts";
import { inProcessFetch } from "./in-process-fetch.ts";
import type { VisitorPageReader } from "./page-reads.ts";
import { bodyTooLargeMessage, readBodyUpTo } from "./request-body.ts";
import { contentSecurityPolicyOf } from "./security-headers.ts";

/** `npm run build` writes the React Router build here, at the repository root. */
export const DEFAULT_BUILD_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "../../../../build");

export interface WebOptions {
  mode: "production" | "development";
  /** The React Router build directory (build/client + build/server). */
  buildDir: string;
  publicConfig: PublicConfig;
  /**
   * Pages rendered for anonymous visitors (no session cookie, no Authorization header) are kept here
   * and served again until the data version or the build changes. Production only.
   */
  pageStore?: ResponseStore;
  /** The current public data version (decision 005). */
  dataVersion?: () => string;
  /** The session cookie's name: a request carrying it may see personal content and is never cached. */
  sessionCookie?: string;
  /** Render and loader errors of pages go where the API's 5xx go (http/error-reporting.ts). */
  errorReporter?: ErrorReporter;
  /**
   * Headers the renderer's own API calls carry (the load context's `apiHeaders`): they mark them as
   * the server's, which the public API's rate limit does not count (http/api-rate-limit.ts).
   */
  internalCallHeaders?: Record<string, string>;
  /** The public database's reads, answered in-process to the pages' loaders (http/page-reads.ts). */
  pageRead?: VisitorPageReader;
}

/**
 * A multipart body React Router's `request.formData()` cannot read would end the page's action in a
 * 500 (issue 38's probes); it is the sender's mistake. Other bodies are left to the page.
 */
async function readsAsForm(body: Buffer, contentType: string | undefined): Promise<boolean> {
  if (!contentType?.toLowerCase().startsWith("multipart/form-data")) return true;
  try {
    await new Request("http://form.invalid/", {
      method: "POST",
      headers: { "content-type": contentType },
      body: new Uint8Array(body),
    }).formData();
    return true;
  } catch {
    return false;
  }
}

/** What a page's form may send (the site check's pasted list is the largest: the API takes 1 MB). */
const PAGE_BODY_LIMIT_BYTES = 1_048_576;

const STORED_PAGES = /^\/database(?:[/?.]|$)/;
/** Pages made to be framed by other sites; each sets its own `frame-ancestors` (the vendor embed). */
const EMBED_PAGES = /^\/iframe(?:[/?]|$)/;

/**
 * No page may be framed by another site (clickjacking): the Content-Security-Policy says
 * `frame-ancestors 'none'` (http/security-headers.ts). The embeds replace that policy with one that
 * lists the origins that may frame them, and never send `X-Frame-Options`, which would override that
 * list in older browsers.
 */
function setFramingPolicy(request: FastifyRequest, reply: FastifyReply) {
  if (!EMBED_PAGES.test(request.url)) reply.header("x-frame-options", "DENY");
}

/**
 * The Fetch API request React Router handles, made from Fastify's: the body is handed over unread
 * (the web routes parse nothing), and the request is aborted if the client goes away first.
 */
function webRequestOf(
  request: FastifyRequest,
  reply: FastifyReply,
  method = request.method,
  body?: Buffer,
): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  const controller = new AbortController();
  reply.raw.on("close", () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  const url = new URL(request.url, `${request.protocol}://${request.headers.host ?? "localhost"}`);
  return new Request(url, {
    method,
    headers,
    signal: controller.signal,
    ...(body && { body: new Uint8Array(body) }),
  });
}

/** The Content-Security-Policy options (nonce included) of the page being rendered, for its load context. */
const pagePolicy = new AsyncLocalStorage<ContentSecurityPolicyOptions | undefined>();
const WORKFLOW_PAGES = /^\/database\/(?:report|patch-submitted|preview-email)/;

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
/** The production web build's server module (loaded once per process: later calls share it). */
export async function loadServerBuild(buildDir: string): Promise<ServerBuild> {
  const serverEntry = join(buildDir, "server", "index.js");
  if (!existsSync(serverEntry)) {
    throw new Error(`No web build at ${serverEntry}: run \`npm run build\` (npm start does it for you).`);
  }
  return (await import(pathToFileURL(serverEntry).href)) as ServerBuild;
}

export async function registerWeb(app: FastifyInstance, options: WebOptions) {
  // The public data version lets server-side caches (the footer count) refresh when public data changes.
  const { errorReporter } = options;
  const reportError = errorReporter && ((error: unknown) => errorReporter.capture(error, { status: 500 }));
  const pageRead = options.pageRead;
  const apiFetch = inProcessFetch(app);
  const getLoadContext = (request: FastifyRequest) => {
    const contentSecurityPolicy = pagePolicy.getStore();
    return {
      publicConfig: options.publicConfig,
      apiFetch,
      ...(options.internalCallHeaders && {
        apiHeaders: options.internalCallHeaders,
        // The visitor's address (as the API's rate limit sees it: trustProxy applied) for the calls a
        // page makes on their behalf, counted on their budget.
        visitorApiHeaders: { ...options.internalCallHeaders, [VISITOR_ADDRESS_HEADER]: request.ip },
      }),
      ...(reportError && { reportError }),
      ...(pageRead && {
        // The page request's address and user agent go with the visitor's credentials (a session's last seen).
        pageRead: ((route, params, query, visitor) =>
          pageRead(route, params, query, visitor, clientInfoOf(request))) satisfies PageReader,
      }),
      ...(options.dataVersion && { dataVersion: options.dataVersion() }),
      ...(contentSecurityPolicy && { contentSecurityPolicy }),
    };
  };

  let build: ServerBuild | (() => Promise<ServerBuild>);
  if (options.mode === "development") {
    const { createServer } = await import("vite");
    const vite = await createServer({ server: { middlewareMode: true }, appType: "custom" });
    await app.register(import("@fastify/middie"));
    app.use(vite.middlewares);
    app.addHook("onClose", () => vite.close());
    build = () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>;
  } else {
    build = await loadServerBuild(options.buildDir);
    await app.register(fastifyStatic, {
      root: join(options.buildDir, "client"),
      wildcard: false,
      // scripts/ensure-build.mjs writes a .br and a .gz beside each text file: sent as the request accepts.
      preCompressed: true,
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

  const pageStore = options.mode === "production" ? options.pageStore : undefined;
  const handleRequest = createRequestHandler(build, options.mode);

  // Only the public database's reading pages: everything they show comes from public data, which the
  // data version covers. Its workflow pages (report forms, previews behind a PIN) and every other page
  // (sign-in links, the development mailbox…) change without it or carry per-visitor secrets.
  const isAnonymousRead = (request: FastifyRequest) =>
    (request.method === "GET" || request.method === "HEAD") &&
    STORED_PAGES.test(request.url) &&
    !WORKFLOW_PAGES.test(request.url) &&
    request.headers.authorization === undefined &&
    !(options.sessionCookie && request.cookies?.[options.sessionCookie]) &&
    // Token mode keeps the token in this cookie: a signed-in visitor's page shows their menu.
    !request.cookies?.[TOKEN_STORAGE_KEY];

  /**
   * Renders into memory (instead of streaming) so that a 200 page can be stored and served again.
   * A HEAD is rendered as the GET it stands for: React Router answers a HEAD with no body, which the
   * store would otherwise serve to every later GET of the URL. Node drops the body of a HEAD answer.
   */
  const renderAndStore = async (request: FastifyRequest, reply: FastifyReply, store: ResponseStore) => {
    const response = await handleRequest(webRequestOf(request, reply, "GET"), getLoadContext(request));
    const payload = Buffer.from(await response.arrayBuffer());
    const cookies = response.headers.getSetCookie();
    reply.code(response.status);
    for (const [name, value] of response.headers) {
      if (name !== "set-cookie" && name !== "content-length" && name !== "transfer-encoding")
        reply.header(name, value);
    }
    if (cookies.length > 0) reply.header("set-cookie", cookies);
    if (response.status === 200 && cookies.length === 0) {
      const etag = etagOf(payload);
      // The page carries this response's script nonce: every later answer from the store (200 or 304)
      // sends the policy with that same nonce. Safe to reuse: the page's content and its nonce were
      // fixed together, and any change of public data renders a new page with a new nonce.
      const policy =
        reply.getHeader("content-security-policy") ?? reply.raw.getHeader("content-security-policy");
      const stored = {
        payload,
        etag,
        contentType: response.headers.get("content-type") ?? "text/html",
        ...(typeof policy === "string" && { headers: { "content-security-policy": policy } }),
      };
      store.set(request, stored);
      return sendStored(request, reply.header("etag", etag), store, stored);
    }
    return reply.send(payload);
  };

  await app.register(async (web) => {
    // React Router reads the raw request body itself: hand it over unparsed.
    web.removeAllContentTypeParsers();
    web.addContentTypeParser("*", (_request, _payload, done) => done(null));
    const render = async (request: FastifyRequest, reply: FastifyReply) => {
      // Replaced by a header of the same name the page sends.
      setFramingPolicy(request, reply);
      let body: Buffer | undefined;
      if (request.method !== "GET" && request.method !== "HEAD") {
        // A page's form, read here up to a limit: React Router would read a body of any size.
        const read = await readBodyUpTo(request.raw, PAGE_BODY_LIMIT_BYTES);
        if (!read.ok && read.reason === "aborted") return reply.code(400).send();
        if (!read.ok) {
          if (!read.whole) reply.header("connection", "close");
          return reply
            .code(413)
            .type("text/plain; charset=utf-8")
            .send(`${bodyTooLargeMessage(PAGE_BODY_LIMIT_BYTES)} Go back and send less.\n`);
        }
        body = read.body;
        if (!(await readsAsForm(body, request.headers["content-type"])))
          return reply
            .code(400)
            .type("text/plain; charset=utf-8")
            .send("The form could not be read. Go back and send it again.\n");
      }
      return pagePolicy.run(contentSecurityPolicyOf(reply), async () => {
        if (pageStore && isAnonymousRead(request)) {
          const stored = pageStore.get(request);
          if (!stored) return renderAndStore(request, reply, pageStore);
          if (stored.headers) reply.headers(stored.headers);
          if (request.headers["if-none-match"] === stored.etag) return reply.code(304).send();
          return sendStored(request, reply.header("etag", stored.etag), pageStore, stored);
        }
        // Not hijacked: Fastify sends React Router's Response (status, headers, streamed body), so its
        // onSend hooks, compression among them, apply to pages too.
        return reply.send(
          await handleRequest(webRequestOf(request, reply, request.method, body), getLoadContext(request)),
        );
      });
    };
    // Pages, not API operations: left out of the OpenAPI document. OPTIONS is @fastify/cors's route
    // (http/cors.ts), which answers 404 where no cross-origin read is allowed.
    const method = web.supportedMethods.filter((name) => name !== "OPTIONS");
    web.route({ method, url: "/", schema: { hide: true }, handler: render });
    web.route({ method, url: "/*", schema: { hide: true }, handler: render });
  });
}
