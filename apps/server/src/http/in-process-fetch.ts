import type { FastifyInstance, InjectOptions } from "fastify";

/**
 * A `fetch` answered by this Fastify app in-process (`app.inject`), for the page actions that call
 * the API on the visitor's behalf (the site check's batch, a report's PIN): they pass the API's own
 * door — its rate limit counted on the visitor, the cookies it sets — without a socket to the
 * server's own port (issue 36). Reads go through `page-reads.ts` instead, without the hooks.
 */
export function inProcessFetch(app: FastifyInstance): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    request.signal.throwIfAborted();
    const url = new URL(request.url);
    const payload = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const answer = await abortable(
      app.inject({
        method: request.method as InjectOptions["method"],
        url: `${url.pathname}${url.search}`,
        headers: Object.fromEntries(request.headers),
        ...(payload && { payload }),
      }),
      request.signal,
    );
    const headers = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (Array.isArray(value)) for (const item of value) headers.append(name, item);
      else if (value !== undefined) headers.set(name, String(value));
    }
    const empty = request.method === "HEAD" || [204, 205, 304].includes(answer.statusCode);
    return new Response(empty ? null : new Uint8Array(answer.rawPayload), {
      status: answer.statusCode,
      headers,
    });
  };
}

/** The answer, unless the caller gives up first (its timeout): then the call fails as fetch's does. */
function abortable<T>(answer: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason ?? new DOMException("The operation was aborted.", "AbortError"));
    signal.addEventListener("abort", abort, { once: true });
    answer.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}
