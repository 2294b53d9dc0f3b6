import type { ContentSecurityPolicyOptions, PageReader, PublicConfig } from "@pressguard/domain";

/**
 * The load context the Fastify server passes to React Router through `getLoadContext`:
 * the browser-safe configuration and the origin the server-side fetches go to during SSR
 * (e.g. "http://127.0.0.1:3000"; the browser uses the relative `publicConfig.apiBase`).
 * Under `react-router dev` there is no such server: see `lib/request-context.server.ts`.
 */
declare module "react-router" {
  interface AppLoadContext {
    publicConfig: PublicConfig;
    /**
     * The server-side API calls that are no page read (a page action's call for the visitor),
     * answered by the server that renders the page without a socket to its own port
     * (apps/server/src/http/in-process-fetch.ts).
     */
    apiFetch?: typeof fetch;
    /**
     * Where server-side calls go over HTTP when the context has no in-process API (a test rendering
     * the app alone; `react-router dev`): the page's own origin by default.
     */
    apiOrigin?: string;
    /**
     * Headers every server-side API call carries: a per-process secret that tells the API the call
     * is the renderer's own, not counted by the public API's rate limit (the page is the visitor's
     * request). Never sent to the browser.
     */
    apiHeaders?: Record<string, string>;
    /**
     * Headers for a call a page makes on the visitor's behalf (the "Check your site" page's batch
     * check): the internal secret plus the visitor's address, so that the API counts the call on the
     * visitor's rate-limit budget instead of exempting it. Never sent to the browser.
     */
    visitorApiHeaders?: Record<string, string>;
    /**
     * The public data version (decision 005) when the request arrived, if the server passes it: the
     * SSR copy of the footer metrics is read again when it changes (an activation bumps it).
     */
    dataVersion?: string;
    /**
     * This response's Content-Security-Policy options, nonce included (apps/server/src/http/security-headers.ts);
     * absent in development. Inline scripts carry the nonce; a page that changes a directive (the vendor
     * embed's frame-ancestors) builds its policy from these.
     */
    contentSecurityPolicy?: ContentSecurityPolicyOptions;
    /**
     * Sends a render or loader error to the server's error reporting (Sentry with SENTRY_DSN,
     * apps/server/src/http/error-reporting.ts); absent without a DSN, and in development.
     */
    reportError?: (error: unknown) => void;
    /**
     * The public database's reads, answered in-process by the server that renders the page
     * (apps/server/src/http/page-reads.ts, decision 038): the same route definitions as
     * `GET /api/…`, without a request to the server's own port. Absent in tests and benches that
     * render with a bare context: the loaders then ask the API over HTTP.
     */
    pageRead?: PageReader;
  }
}
