import fastifyCookie from "@fastify/cookie";
import {
  type PageReadAnswers,
  type PageReadFailure,
  type PageReadQuery,
  type PageReadRoute,
  pageReadPath,
  pageReadSearch,
  type VisitorCredentials,
} from "@pressguard/domain";
import type { FastifyBaseLogger, FastifyInstance, RouteHandlerMethod, RouteShorthandOptions } from "fastify";
import { z } from "zod";
import { AppError, validationErrorOf } from "../errors.ts";
import type { AccessCheck, AccessLevel, ClientInfo, RequestAuth, RouteAccess } from "./access.ts";
import { errorAnswerOf } from "./error-handler.ts";
import type { ErrorReporter } from "./error-reporting.ts";
import { isWellFormedUrl, malformed } from "./reject-malformed-input.ts";

/**
 * The reads of server-rendered pages, in-process (issue 36, decision 038). Each read is an API route
 * declared once here: `get` registers it on Fastify (the HTTP API, for browsers and API clients) and
 * keeps its definition, and `read` answers a page's loader from that same definition — the same params
 * and query schemas, the same access check of the visitor's credentials (http/access.ts), the same
 * handler and service, the same response schema (encoded as the HTTP serializer encodes it) and the
 * same error answers — without a request to the server's own port and a second pass through its
 * hooks. The renderer's calls were never counted by the API's rate limit.
 */

/** A `PageReader` that also takes the page request's client (http/web.ts binds it per page). */
export type VisitorPageReader = <R extends PageReadRoute>(
  route: R,
  params?: Readonly<Record<string, string>>,
  query?: PageReadQuery,
  visitor?: VisitorCredentials,
  client?: ClientInfo,
) => Promise<PageReadAnswers[R]>;

/** A read with no page request behind it (a test): no address to record. */
const NO_CLIENT: ClientInfo = { ip: "", userAgent: null };

declare module "fastify" {
  interface FastifyInstance {
    /** The app's page reads, answered in-process (what the pages' loaders are given). */
    pageRead: VisitorPageReader;
  }
}

/** What a read's handler sees of its request: the same for an HTTP request and an in-process read. */
interface ReadRequest<Params, Query> {
  params: Params;
  query: Query;
  /** The path and query string under `/api`, as an HTTP request would have them (pagination links). */
  url: string;
  /** The caller, as the access hook resolves it (null: anonymous). */
  auth: RequestAuth | null;
  /** The request's cookies (a PIN preview's or a link grant's credential). */
  cookies: Readonly<Record<string, string | undefined>>;
}

interface ReadSchema<P extends z.ZodType, Q extends z.ZodType, R extends z.ZodType> {
  params?: P;
  querystring?: Q;
  response: { 200: R };
  [documentation: string]: unknown;
}

interface Definition {
  /** The prefix the route was registered under (`/api`). */
  prefix: string;
  access: RouteAccess & { access: AccessLevel };
  params?: z.ZodType;
  querystring?: z.ZodType;
  response: z.ZodType;
  handler: (request: ReadRequest<unknown, unknown>) => unknown;
}

export interface PageReads {
  /** Registers a public read route on `app` (within the `/api` prefix) and keeps its definition. */
  get<
    Route extends PageReadRoute,
    P extends z.ZodType = z.ZodType<Record<string, never>>,
    Q extends z.ZodType = z.ZodType<Record<string, never>>,
    R extends z.ZodType<PageReadAnswers[Route]> = z.ZodType<PageReadAnswers[Route]>,
  >(
    app: FastifyInstance,
    url: Route,
    options: {
      schema: ReadSchema<P, Q, R>;
      config: RouteAccess & { access: AccessLevel; [other: string]: unknown };
      /** Headers of the HTTP answer (a personal read's `cache-control: private, no-store`). */
      headers?: Readonly<Record<string, string>>;
    },
    handler: (request: ReadRequest<z.output<P>, z.output<Q>>) => unknown,
  ): void;
  /**
   * Answers a page's loader in-process; throws a `PageReadFailure` where the API answers an error.
   * `client` is the page request's address and user agent (a session's last seen), given by the
   * web server, which knows them.
   */
  read: VisitorPageReader;
}

export interface PageReadOptions {
  log: FastifyBaseLogger;
  errorReporter?: ErrorReporter;
  /** Who the visitor is and what they may read: the access hook's own rules. */
  access: AccessCheck;
  sessionCookie: string;
}

/** The HTTP request's query as Fastify's parser gives it: every value a string, a repeated name a list. */
function queryObjectOf(search: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(search)) {
    const earlier = query[name];
    query[name] = earlier === undefined ? value : [...(Array.isArray(earlier) ? earlier : [earlier]), value];
  }
  return query;
}

export function createPageReads(options: PageReadOptions): PageReads {
  const definitions = new Map<string, Definition>();

  function failure(error: unknown, route: string): PageReadFailure {
    const answer = errorAnswerOf(error);
    if (answer.log) {
      options.log[answer.log.level]({ err: error, read: route }, answer.log.message);
      options.errorReporter?.capture(error, { status: answer.status, method: "GET", route });
    }
    return {
      kind: "page-read-failure",
      status: answer.status,
      message: answer.body.message,
      ...(answer.body.errors && { errors: answer.body.errors }),
    };
  }

  function parsed(schema: z.ZodType | undefined, input: unknown, part: string): unknown {
    if (!schema) return input;
    const result = schema.safeParse(input);
    if (result.success) return result.data;
    throw validationErrorOf(
      result.error.issues.map((issue) => ({ ...issue, path: issue.path.length ? issue.path : [part] })),
    );
  }

  return {
    get(app, url, routeOptions, handler) {
      const { headers, ...fastifyOptions } = routeOptions;
      const { schema } = routeOptions;
      const answer = handler as unknown as RouteHandlerMethod;
      app.get(
        url,
        fastifyOptions as RouteShorthandOptions,
        headers
          ? function withHeaders(request, reply) {
              reply.headers(headers);
              return answer.call(this, request, reply);
            }
          : answer,
      );
      definitions.set(url, {
        prefix: app.prefix,
        access: routeOptions.config,
        params: schema.params,
        querystring: schema.querystring,
        response: schema.response[200],
        handler: handler as Definition["handler"],
      });
    },

    async read(route, params = {}, query = {}, visitor = {}, client = NO_CLIENT) {
      const definition = definitions.get(route);
      if (!definition) throw new Error(`No page read is registered for ${route}`);
      try {
        const search = pageReadSearch(query);
        const url = `${definition.prefix}${pageReadPath(route, params)}${search}`;
        // The /api scope's door (http/reject-malformed-input.ts), which an in-process read does not pass.
        if (!isWellFormedUrl(url)) throw malformed();
        const cookies = visitor.cookie ? fastifyCookie.parse(visitor.cookie) : {};
        const { auth } = options.access.authorize(
          definition.access,
          await options.access.identify({
            bearer: visitor.bearer ?? undefined,
            sessionSecret: cookies[options.sessionCookie],
            client,
          }),
        );
        const answer = await definition.handler({
          auth,
          cookies,
          params: parsed(definition.params, { ...params }, "params"),
          query: parsed(definition.querystring, queryObjectOf(search), "querystring"),
          url,
        });
        const encoded = z.safeEncode(definition.response, answer);
        if (!encoded.success) {
          throw new AppError("internal", {
            message: "The answer does not match its schema.",
            cause: encoded.error,
          });
        }
        return encoded.data as never;
      } catch (error) {
        throw failure(error, route);
      }
    },
  };
}
