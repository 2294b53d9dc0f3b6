import type { FastifyInstance } from "fastify";
import { AppError } from "../errors.ts";
import { UNSTORABLE_TEXT_MESSAGE } from "./error-handler.ts";

/**
 * Issue 15, finding 3: a NUL character or bytes that are not UTF-8 can never be stored (PostgreSQL
 * refuses them) or mean anything in a name, a search or a field. They are refused at the door, with
 * the 422 the error handler gives when the database refuses such text, before a route sees them: in
 * a path segment, anywhere in the query string, and in a JSON body (its bytes, its keys and its
 * string values). Multipart uploads are files, judged by their own routes.
 */
export const malformed = () => new AppError("validation", { message: UNSTORABLE_TEXT_MESSAGE });

/** Node's HTTP parser refuses a raw NUL in the request line, so a path can only carry it encoded. */
const ENCODED_NUL = /%00/i;
const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** Every `name=value` of a raw query string decodes to UTF-8 text without NUL. */
function isWellFormedQuery(query: string): boolean {
  for (const pair of query.split("&")) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(pair.replaceAll("+", " "));
    } catch {
      return false; // a byte sequence that is not UTF-8 (`%ff`, a lone surrogate), or a bare `%`
    }
    if (decoded.includes("\0")) return false;
  }
  return true;
}

/** A path without an encoded NUL and a query string of UTF-8 text without NUL (shared by http/page-reads.ts). */
export function isWellFormedUrl(url: string): boolean {
  const queryStart = url.indexOf("?");
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  if (ENCODED_NUL.test(path)) return false;
  return queryStart === -1 || isWellFormedQuery(url.slice(queryStart + 1));
}

/** Whether a parsed JSON value holds a NUL in any key or string, walked without recursion (deep bodies). */
function containsNul(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current === "string") {
      if (current.includes("\0")) return true;
    } else if (Array.isArray(current)) {
      for (const item of current) pending.push(item);
    } else if (current !== null && typeof current === "object") {
      for (const [key, item] of Object.entries(current)) {
        if (key.includes("\0")) return true;
        pending.push(item);
      }
    }
  }
  return false;
}

/** Registers the checks on `app` (the API's scope): query and path on request, JSON bodies as parsed. */
export function rejectMalformedInput(app: FastifyInstance) {
  // Callback hooks: they run on every API request, and an async one costs a promise each time.
  app.addHook("onRequest", (request, _reply, done) => {
    done(isWellFormedUrl(request.url) ? undefined : malformed());
  });

  // Fastify's own JSON parser reads the body as UTF-8 and silently turns bad bytes into U+FFFD.
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "buffer" }, (request, body, done) => {
    let text: string;
    try {
      text = strictUtf8.decode(body as Buffer);
    } catch {
      done(malformed(), undefined);
      return;
    }
    parseJson(request, text, done);
  });

  app.addHook("preValidation", (request, _reply, done) => {
    done(containsNul(request.body) ? malformed() : undefined);
  });
}
