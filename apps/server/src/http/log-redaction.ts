import type { FastifyRequest } from "fastify";

/**
 * Secrets that travel in URLs (signed preview links `?token=`, magic links, e-mail verification and
 * password reset paths) never reach the logs: their values are replaced before a request is logged.
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

export function redactUrl(url: string): string {
  const [path = "", query] = url.split("?", 2);
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
