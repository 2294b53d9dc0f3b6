import { z } from "zod";

/**
 * The auth client configuration (spec §4, §7, §8). The messages are the specification's,
 * word for word: they name the option that is missing.
 */
/**
 * Where the token lives in token mode (spec §7: "read from storage (cookie by default)"): the same
 * name for the cookie and the localStorage key. The server knows it too: a page request carrying the
 * cookie is a signed-in visitor's, never answered from or kept in the page store.
 */
export const TOKEN_STORAGE_KEY = "pressguard.token";

export const AUTH_CONFIG_MESSAGES = {
  onLogin: "sanctum.redirect.onLogin is not defined",
  onLogout: "sanctum.redirect.onLogout is not defined",
  login: "sanctum.endpoints.login is not defined",
  logout: "sanctum.endpoints.logout is not defined",
  tokenStorage: "sanctum.tokenStorage is not defined in app.config.ts",
} as const;

/** A route path, or false to stay where the user is. */
const RedirectTarget = z.union([z.string().min(1), z.literal(false)]);

export const AuthClientConfig = z
  .object({
    baseUrl: z.string().default("/api"),
    mode: z.enum(["cookie", "token"]).default("cookie"),
    redirectIfAuthenticated: z.boolean().default(false),
    redirectIfUnauthenticated: z.boolean().default(true),
    endpoints: z.object({
      csrf: z.string().default("/csrf-cookie"),
      login: z.string({ error: AUTH_CONFIG_MESSAGES.login }).min(1, AUTH_CONFIG_MESSAGES.login),
      logout: z.string({ error: AUTH_CONFIG_MESSAGES.logout }).min(1, AUTH_CONFIG_MESSAGES.logout),
      user: z.string().default("/user"),
    }),
    csrf: z
      .object({ cookie: z.string().default("XSRF-TOKEN"), header: z.string().default("X-XSRF-TOKEN") })
      .default({ cookie: "XSRF-TOKEN", header: "X-XSRF-TOKEN" }),
    redirect: z.object({
      keepRequestedRoute: z.boolean().default(true),
      onLogin: z
        .union([RedirectTarget, z.undefined()])
        .refine((v) => v !== undefined, AUTH_CONFIG_MESSAGES.onLogin),
      onLogout: z
        .union([RedirectTarget, z.undefined()])
        .refine((v) => v !== undefined, AUTH_CONFIG_MESSAGES.onLogout),
      onAuthOnly: RedirectTarget.default("/vdp/login"),
      onGuestOnly: RedirectTarget.default("/"),
    }),
    /** Where the token is kept in token mode: a cookie by default (spec §7). */
    tokenStorage: z.enum(["cookie", "localStorage"]).optional(),
    retry: z.number().int().min(0).default(1),
  })
  .superRefine((config, ctx) => {
    if (config.mode === "token" && !config.tokenStorage) {
      ctx.addIssue({ code: "custom", path: ["tokenStorage"], message: AUTH_CONFIG_MESSAGES.tokenStorage });
    }
  });
export type AuthClientConfig = z.infer<typeof AuthClientConfig>;
export type AuthClientConfigInput = z.input<typeof AuthClientConfig>;

/** The defaults this product ships with: cookie mode against its own API. */
export const DEFAULT_AUTH_CLIENT_CONFIG: AuthClientConfigInput = {
  baseUrl: "/api",
  mode: "cookie",
  endpoints: { csrf: "/csrf-cookie", login: "/login", logout: "/logout", user: "/user" },
  redirect: {
    keepRequestedRoute: true,
    onLogin: "/",
    onLogout: "/vdp/login",
    onAuthOnly: "/vdp/login",
    onGuestOnly: "/",
  },
  tokenStorage: "cookie",
};
