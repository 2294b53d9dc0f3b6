import type { App } from "../app.ts";

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface InjectResult {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
  cookies: { name: string; value: string; httpOnly?: boolean; sameSite?: string; maxAge?: number }[];
  json<T = Record<string, unknown>>(): T;
}

/**
 * A browser-like API caller for tests: keeps cookies between calls and, in cookie mode, sends the
 * XSRF-TOKEN cookie back as X-XSRF-TOKEN on unsafe methods like the web client does.
 */
export function createApiCaller(app: App, options: { ip?: string } = {}) {
  const cookies = new Map<string, string>();
  let bearer: string | null = null;

  function remember(response: {
    cookies: { name: string; value: string; maxAge?: number; expires?: Date }[];
  }) {
    for (const cookie of response.cookies) {
      const expired = cookie.maxAge === 0 || (cookie.expires && cookie.expires.getTime() <= Date.now());
      if (expired || cookie.value === "") cookies.delete(cookie.name);
      else cookies.set(cookie.name, cookie.value);
    }
  }

  async function request(
    method: Method,
    url: string,
    body?: unknown,
    extra: { csrf?: boolean; headers?: Record<string, string> } = {},
  ): Promise<InjectResult> {
    const headers: Record<string, string> = { accept: "application/json", ...extra.headers };
    if (bearer) headers.authorization = `Bearer ${bearer}`;
    if (cookies.size > 0) headers.cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    const unsafe = method !== "GET";
    if (unsafe && !bearer && extra.csrf !== false) {
      if (!cookies.has("XSRF-TOKEN")) {
        const csrf = await app.inject({ method: "GET", url: "/api/csrf-cookie", remoteAddress: options.ip });
        remember(csrf);
        headers.cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");
      }
      headers["x-xsrf-token"] = cookies.get("XSRF-TOKEN") ?? "";
    }
    const response = await app.inject({
      method,
      url,
      headers,
      remoteAddress: options.ip,
      ...(body !== undefined && { payload: body as Record<string, unknown> }),
    });
    remember(response);
    return response;
  }

  return {
    cookies,
    setBearer(token: string | null) {
      bearer = token;
    },
    get: (url: string, extra?: { headers?: Record<string, string> }) => request("GET", url, undefined, extra),
    post: (url: string, body?: unknown, extra?: { csrf?: boolean; headers?: Record<string, string> }) =>
      request("POST", url, body, extra),
    put: (url: string, body?: unknown, extra?: { csrf?: boolean; headers?: Record<string, string> }) =>
      request("PUT", url, body, extra),
    patch: (url: string, body?: unknown, extra?: { csrf?: boolean; headers?: Record<string, string> }) =>
      request("PATCH", url, body, extra),
    delete: (url: string, extra?: { csrf?: boolean }) => request("DELETE", url, undefined, extra),
  };
}

export type ApiCaller = ReturnType<typeof createApiCaller>;

let counter = 0;
/** A unique e-mail address per call, so tests never collide. */
export function uniqueEmail(prefix = "user"): string {
  counter += 1;
  return `${prefix}-${counter}-${Math.random().toString(36).slice(2, 8)}@example.test`;
}

/** Registers an account through the API and returns a caller signed in as it. */
export async function registerUser(
  app: App,
  overrides: {
    role?: "researcher" | "vendor" | "site_owner";
    email?: string;
    password?: string;
    name?: string;
    ip?: string;
  } = {},
) {
  counter += 1;
  // One address per account, so that the per-IP limits of one test never meet another's.
  const caller = createApiCaller(app, {
    ip: overrides.ip ?? `10.200.${Math.floor(counter / 250) % 250}.${counter % 250}`,
  });
  const email = overrides.email ?? uniqueEmail(overrides.role ?? "researcher");
  const password = overrides.password ?? "correct horse battery";
  const registered = await caller.post("/api/register", {
    name: overrides.name ?? "Test User",
    email,
    password,
    role: overrides.role ?? "researcher",
  });
  if (registered.statusCode !== 202)
    throw new Error(`register failed: ${registered.statusCode} ${registered.body}`);
  // Registration signs nobody in (it must not tell a new address from a known one): sign in after.
  const response = await caller.post("/api/login", { email, password });
  if (response.statusCode !== 200) throw new Error(`login failed: ${response.statusCode} ${response.body}`);
  return { caller, email, password, user: response.json<{ id: number; roles: string[] }>() };
}
