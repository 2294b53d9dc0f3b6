/**
 * Errors that mean "the database is not reachable right now" rather than "this request is wrong":
 * a restart or failover of PostgreSQL terminating connections (57P01-57P03), a connection exception
 * (class 08), too many connections, a refused or reset socket, node-postgres's own messages for a
 * connection that ended. They cost only the request in flight: it answers 503 with Retry-After and
 * the pools connect again on the next checkout.
 */
const UNAVAILABLE_SQLSTATES = new Set(["57P01", "57P02", "57P03", "53300"]);
const UNAVAILABLE_SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
]);
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated/,
  /is not queryable/,
  /^timeout exceeded when trying to connect/,
  /^Cannot use a pool after calling end/,
];

/** Seconds a client should wait before retrying a request that met an unavailable database. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/** True for `error` or any error in its `cause` chain (Drizzle wraps the driver's). */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && (UNAVAILABLE_SQLSTATES.has(code) || code.startsWith("08"))) return true;
    if (typeof code === "string" && UNAVAILABLE_SOCKET_CODES.has(code)) return true;
    if (UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(current instanceof Error ? current.message : "")))
      return true;
    current = current.cause;
  }
  return false;
}
