import fastifyMultipart from "@fastify/multipart";
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest, RouteOptions } from "fastify";
import { AppError } from "../errors.ts";

/**
 * Spec §7: a client sends a PUT with form data as a POST with the field `_method=PUT` (HTML forms
 * and multipart bodies cannot be PUT). Every API route that accepts PUT also answers such a POST, the
 * same way: same access level, schema and handler. The POST twin is left out of the OpenAPI document.
 */
const METHOD_FIELD = "_method";

/** Collects the API's PUT routes as they are declared; register before the API modules. */
export function collectPutRoutes(app: FastifyInstance): RouteOptions[] {
  const routes: RouteOptions[] = [];
  app.addHook("onRoute", (route) => {
    const methods = [route.method].flat();
    // Not a route that answers POST itself (the API's catch-all 404 answers every method).
    if (route.url.startsWith("/api/") && methods.includes("PUT") && !methods.includes("POST"))
      routes.push(route);
  });
  return routes;
}

/** A POST without `_method=PUT` is no request the route answers: the usual JSON 404. */
async function requirePutOverride(request: FastifyRequest) {
  const body = request.body as Record<string, unknown> | null | undefined;
  const method = body?.[METHOD_FIELD];
  if (typeof method !== "string" || method.toUpperCase() !== "PUT")
    throw new AppError("not_found", { message: `Route POST ${request.url.split("?")[0]} not found.` });
  delete body?.[METHOD_FIELD];
}

function hooksOf(value: RouteOptions["preValidation"]) {
  return value === undefined ? [] : [value].flat();
}

/** Registers the POST twin of each collected PUT route, reading multipart and URL-encoded forms too. */
export const methodOverrideRoutes: FastifyPluginAsync<{ routes: RouteOptions[] }> = async (
  app,
  { routes },
) => {
  // Field values become the body (a file field arrives as a Buffer and fails the route's schema).
  await app.register(fastifyMultipart, { attachFieldsToBody: "keyValues" });
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string" },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
  for (const route of routes) {
    app.route({
      method: "POST",
      url: route.url,
      schema: { ...route.schema, hide: true },
      config: route.config,
      ...(route.bodyLimit !== undefined && { bodyLimit: route.bodyLimit }),
      ...(route.onRequest !== undefined && { onRequest: route.onRequest }),
      preValidation: [requirePutOverride, ...hooksOf(route.preValidation)],
      ...(route.preHandler !== undefined && { preHandler: route.preHandler }),
      handler: route.handler,
    });
  }
};
