import type { FastifyRequest } from "fastify";

/**
 * Secrets that travel in URLs (signed preview links `?token=`, magic links, e-mail verification and
 * password reset paths, an API key put where it does not belong) never reach the logs: their values are replaced before a request is logged.
 */
const SECRET_QUERY_PARAMETERS = new Set(["token", "code", "pin"]);
const SECRET_PATHS = [
  /^(\/api\/magic-link\/)[^/?#]+/,
  /^(\/login\/magic-link\/)[^/?#]+/,
  /^(\/api\/email\/verify\/)[^/?#]+/,
  /^(\/reset-password\/)[^/?#]+/,
  /^(\/api\/invitations\/)[^/?#]+/,
  /^(\/vdp\/invitations\/)[^/?#]+/,
];

/**
 * An API key (decision 028) is recognised by its prefix wherever it appears, say pasted into a query
 * parameter by mistake; the prefix stays, so the log still tells that one was sent.
 */
const API_KEY_PATTERN = /pgk_[A-Za-z0-9_-]+/g;

export function redactUrl(url: string): string {
  const [path = "", query] = url.replace(API_KEY_PATTERN, "pgk_[redacted]").split("?", 2);
  let safePath = path;
  for (const pattern of SECRET_PATHS) safePath = safePath.replace(pattern, "$1[redacted]");
  if (query === undefined) return safePath;
  const parameters = new URLSearchParams(query);
  for (const name of [...parameters.keys()])
    if (SECRET_QUERY_PARAMETERS.has(name.toLowerCase())) parameters.set(name, "[redacted]");
  return `${safePath}?${parameters.toString()}`;
}

/** Fastify's request log line, with the URL redacted. */
export function requestLogSerializer(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
  };
}
