import type { FastifyInstance, RouteOptions } from "fastify";
import type { AccessLevel } from "./access.ts";
import { ErrorBody } from "./error-handler.ts";

/** The OpenAPI security schemes: the session cookie (cookie mode) or a personal access token. */
export function securitySchemesOf(sessionCookie: string) {
  return {
    session: { type: "apiKey", in: "cookie", name: sessionCookie },
    bearer: { type: "http", scheme: "bearer" },
  } as const;
}

/**
 * The operation groups of the OpenAPI document, each described (Spectral's operation-tag-defined:
 * every tag an operation names is declared here; `openapi-lint.smoke.test.ts` holds to it).
 */
export const API_TAGS = [
  {
    name: "public database",
    description:
      "The vulnerability database: records, products, search, OSV and CSAF (read by anyone; `/api/v1` also with a key).",
  },
  { name: "public", description: "The counters of the public footer." },
  {
    name: "site files",
    description: "robots.txt, sitemaps, security.txt, the Atom feed and the CSAF provider files.",
  },
  {
    name: "watchlists",
    description: "A site owner's watchlists: inventories, exposures, alerts, webhooks and the batch check.",
  },
  {
    name: "reports",
    description:
      "Vulnerability reports: submission, triage, comments, attachments and the CRA notifications.",
  },
  {
    name: "report previews",
    description: "A report opened from its forwarded link with the PIN mailed beside it.",
  },
  {
    name: "report forwarding",
    description: "Where a vendor's reports are forwarded (e-mail, webhooks, trackers), and the deliveries.",
  },
  {
    name: "vendor programs",
    description: "A vendor's disclosure programs: products, policies and the CSV import.",
  },
  { name: "vendor account", description: "A vendor's account details." },
  { name: "vendor seats", description: "A vendor's team: seats, invitations and roles." },
  { name: "vendor subscription", description: "A vendor's plan and its payment." },
  { name: "researcher profile", description: "A researcher's public profile." },
  {
    name: "auth",
    description: "Registration, sign-in, sessions, two-factor authentication, passwords and API keys.",
  },
  {
    name: "staff",
    description: "Triage, publication, product contacts, billing and the data sources (staff only).",
  },
  { name: "embed", description: "The report form a vendor embeds on its own site." },
  { name: "development", description: "The mailbox of a server on a loopback address (DEV_MAILBOX)." },
];

const SIGNED_IN: Record<string, string[]>[] = [{ session: [] }, { bearer: [] }];
const UNSAFE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** `GET /api/v1/osv/:id` → `getV1OsvById`: unique as long as method and path are. */
function operationIdOf(method: string, url: string): string {
  const words = url
    .replace(/^\/api(?=\/|$)/, "")
    .split("/")
    .filter(Boolean)
    .flatMap((segment) => (segment.startsWith(":") ? ["by", segment.slice(1)] : [segment]))
    .flatMap((segment) => segment.split(/[^A-Za-z0-9]+/))
    .filter(Boolean);
  return [method.toLowerCase(), ...words.map((word) => word[0]!.toUpperCase() + word.slice(1))].join("");
}

/**
 * What the access hook (access.ts) and the validation answer, stated in each documented route's
 * schema so the OpenAPI document says it: 401 and 403 where the route needs a signed-in caller,
 * 419 (CSRF) on unsafe methods, 422 where the route validates input, 429 on the public API (its rate
 * limit). A status the route declares
 * itself is kept.
 */
function errorResponsesOf(route: RouteOptions, access: AccessLevel): Record<number, typeof ErrorBody> {
  const methods = [route.method].flat().map((method) => method.toUpperCase());
  const schema = route.schema ?? {};
  const responses: Record<number, typeof ErrorBody> = {};
  if (access !== "public") {
    responses[401] = ErrorBody; // not signed in
    responses[403] = ErrorBody; // without the role or capability the route needs
  }
  if (methods.some((method) => UNSAFE_METHODS.has(method))) responses[419] = ErrorBody; // cookie mode: the X-XSRF-TOKEN header does not match the cookie
  if (schema.body || schema.querystring || schema.params) responses[422] = ErrorBody; // the request does not meet the route's schema
  if (route.url.startsWith("/api/v1/")) responses[429] = ErrorBody; // the public API's rate limit (api-rate-limit.ts, decision 028)
  return responses;
}

/**
 * Completes the schema of every documented route when it is declared: an operation id, its security
 * (from the access level declared beside it) and the error answers the shared hooks give. Hidden
 * routes and routes without a schema outside `/api` (the web pages) are left alone.
 */
export function registerRouteDocs(app: FastifyInstance) {
  app.addHook("onRoute", (route) => {
    if (route.schema?.hide || (!route.schema && !route.url.startsWith("/api"))) return;
    const method = [route.method].flat()[0] ?? "get";
    if (method === "HEAD") return;
    const access = (route.config as { access?: AccessLevel } | undefined)?.access ?? "public";
    route.schema ??= {};
    const schema = route.schema;
    const documented = schema as typeof schema & { operationId?: string; security?: unknown };
    documented.operationId ??= operationIdOf(method, route.url);
    documented.security ??= access === "public" ? [] : SIGNED_IN;
    schema.response = { ...errorResponsesOf(route, access), ...(schema.response as object | undefined) };
  });
}

type OpenApiDocument = { components?: { schemas?: Record<string, unknown> } } & Record<string, unknown>;

/**
 * The document without the component schemas nothing refers to (issue 38: Redocly's
 * no-unused-components flagged 67). The zod transform names a schema with an id twice, as the
 * request reads it (`…Input`) and as the answer writes it, and most are only used one way.
 */
export function withoutUnusedComponents<Document extends OpenApiDocument>(document: Document): Document {
  const schemas = document.components?.schemas;
  if (!schemas) return document;
  const referenced = new Set<string>();
  const pending: unknown[] = [{ ...document, components: { ...document.components, schemas: {} } }];
  while (pending.length > 0) {
    const node = pending.pop();
    if (Array.isArray(node)) pending.push(...node);
    else if (node && typeof node === "object") {
      for (const [key, value] of Object.entries(node)) {
        if (key === "$ref" && typeof value === "string" && value.startsWith("#/components/schemas/")) {
          const name = value.slice("#/components/schemas/".length);
          if (!referenced.has(name)) {
            referenced.add(name);
            pending.push(schemas[name]);
          }
        } else pending.push(value);
      }
    }
  }
  const kept = Object.fromEntries(Object.entries(schemas).filter(([name]) => referenced.has(name)));
  return { ...document, components: { ...document.components, schemas: kept } };
}
