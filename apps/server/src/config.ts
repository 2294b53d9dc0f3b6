import { dirname, join } from "node:path";
import {
  AuthClientConfig,
  type CaptchaClientConfig,
  DEFAULT_AUTH_CLIENT_CONFIG,
  type PublicConfig,
  SiteConfig,
} from "@pressguard/domain";
import ipaddr from "ipaddr.js";
import { z } from "zod";
import { BILLING_PROVIDERS } from "./modules/billing/provider.ts";

/**
 * The only reader of process.env (STYLE.md). Every variable of ARCHITECTURE.md plus the site and
 * auth-client settings of the specification; a missing or bad value stops start-up naming it.
 */
const optionalText = z
  .string()
  .optional()
  .transform((value) => (value?.trim() ? value.trim() : undefined));

/** Kept as given (trimmed): an explicitly empty value means "not defined", unlike an unset one. */
const explicitText = z
  .string()
  .optional()
  .transform((value) => value?.trim());

/** A security.txt Contact (RFC 9116 §2.5.3): an e-mail address as a mailto: URI, or an https: page. */
function isSecurityContact(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol === "mailto:") return /^[^@\s/?#]+@[^@\s/?#]+$/.test(decodeURIComponent(url.pathname));
  return url.protocol === "https:" && url.hostname !== "";
}

/** SECURITY_CONTACT: one URI, or several separated by commas (each becomes a Contact line). */
const securityContacts = optionalText.pipe(
  z
    .string()
    .transform((value) =>
      value
        .split(",")
        .map((contact) => contact.trim())
        .filter(Boolean),
    )
    .pipe(
      z
        .array(
          z.string().refine(isSecurityContact, {
            message:
              "must be mailto: or https: URIs separated by commas, such as mailto:security@example.com",
          }),
        )
        .min(1),
    )
    .optional(),
);

const postgresUrl = optionalText.pipe(
  z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// connection string")
    .optional(),
);

/** An upstream data source's URL (decision 035): http(s), defaulted, or `off` to disable the source. */
const sourceUrl = (defaultUrl: string) =>
  z
    .string()
    .trim()
    .default(defaultUrl)
    .transform((value) => (value === "" ? defaultUrl : value))
    .pipe(
      z.union([
        z.literal("off"),
        z.url({ protocol: /^https?$/, message: "must be an http:// or https:// URL, or off" }),
      ]),
    )
    .transform((value) => (value === "off" ? null : value));

const Env = z.object({
  /**
   * `production` for any instance others can reach. Unset behaves as `development` but is not an
   * explicit test or development setting: CAPTCHA=off needs NODE_ENV=test or development.
   */
  NODE_ENV: z.enum(["development", "production", "test"]).optional(),
  DATABASE_URL: postgresUrl,
  DATABASE_READ_URL: postgresUrl,
  /**
   * The embedded PostgreSQL server's data directory (decision 037), used when DATABASE_URL is unset.
   * A PGlite directory `pglite` beside it (an install from before) is copied into it on the first start.
   */
  EMBEDDED_DB_DIR: z.string().trim().min(1).default("./data/postgres"),
  /** When the server runs as root: the account the embedded PostgreSQL runs as (default postgres, else nobody). */
  EMBEDDED_DB_USER: optionalText,
  /**
   * Set: the in-process PGlite engine in that directory instead of the embedded PostgreSQL, for a
   * platform the PostgreSQL binaries do not cover (decision 037).
   */
  PGLITE_DIR: optionalText,
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  HOST: z.string().min(1).default("127.0.0.1"),
  /** Unset: derived from PORT and HOST (defaultAppUrl). */
  APP_URL: z.url({ message: "must be an absolute URL such as http://localhost:3000" }).optional(),
  SMTP_URL: optionalText.pipe(
    z
      .string()
      .regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL")
      .optional(),
  ),
  /** Sender of every e-mail. */
  MAIL_FROM: z.string().min(3).default("Pressguard <no-reply@pressguard.localhost>"),
  /**
   * The development mailbox (/dev/mail), refused on a HOST other machines reach, as it shows every
   * sign-in link, PIN, reset link and invitation (issue 15). Unset: on for a loopback-only start
   * without SMTP (`opensMailboxByDefault`), off otherwise.
   */
  DEV_MAILBOX: z.enum(["on", "off", "true", "false", "1", "0"]).optional(),
  CAPTCHA: z.enum(["altcha", "recaptcha", "off"]).default("altcha"),
  /**
   * Signs ALTCHA challenges. Unset: one generated at the first start and kept in the database, which
   * every instance on it shares (decision 022). Never logged.
   */
  CAPTCHA_HMAC_KEY: optionalText.pipe(z.string().min(32, "must be at least 32 characters long").optional()),
  /** CAPTCHA=recaptcha (v3): the public site key the widget uses and the secret siteverify checks with. */
  RECAPTCHA_SITE_KEY: optionalText,
  /** Never logged, never sent to the browser. */
  RECAPTCHA_SECRET_KEY: optionalText,
  RECAPTCHA_VERIFY_URL: z.url().default("https://www.google.com/recaptcha/api/siteverify"),
  /** reCAPTCHA v3 scores from 0 (a bot) to 1 (a person); below this a report is refused. */
  RECAPTCHA_MIN_SCORE: z.coerce.number().min(0).max(1).default(0.5),
  /**
   * Signs the 7-day report preview links of e-mails and the PIN preview credential (decision 008).
   * Unset: one generated at the first start and kept in the database, which every instance on it
   * shares (decision 022). Never logged.
   */
  PREVIEW_TOKEN_KEY: optionalText.pipe(z.string().min(32, "must be at least 32 characters long").optional()),
  /**
   * A local directory of this instance, outside the web root: uploads in progress are received here
   * before they are stored, and the attachments of an installation from before decision 022 are moved
   * from here into ATTACHMENTS_STORE at start.
   */
  ATTACHMENTS_DIR: z.string().min(1).default("./data/attachments"),
  /**
   * A local directory of this instance: the public exports built once per data version (the OSV
   * files, decision 027). Not ATTACHMENTS_DIR, which holds only uploads in progress.
   */
  EXPORTS_DIR: z.string().min(1).default("./data/exports"),
  /**
   * Where attachment bytes are stored, shared by every instance (decision 022): `database` (PGlite or
   * PostgreSQL, the default) or `s3` (an S3-compatible bucket, the S3_* variables).
   */
  ATTACHMENTS_STORE: z.enum(["database", "s3"]).default("database"),
  /** ATTACHMENTS_STORE=s3: the service's URL (MinIO, Ceph, R2 …); unset for AWS S3 itself. */
  S3_ENDPOINT: optionalText.pipe(
    z
      .url({ protocol: /^https?$/, message: "must be an http:// or https:// URL such as http://minio:9000" })
      .optional(),
  ),
  S3_BUCKET: optionalText,
  S3_REGION: z.string().min(1).default("us-east-1"),
  /** Both or neither: unset, the AWS SDK's own credential chain is used. Never logged. */
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  /** The bucket in the URL's path (most S3-compatible services). Default: on when S3_ENDPOINT is set. */
  S3_FORCE_PATH_STYLE: z.enum(["on", "off", "true", "false", "1", "0"]).optional(),
  /** Report forwarding: webhooks may reach 127.0.0.1/::1 (tests only); private ranges stay refused. */
  FORWARDING_ALLOW_LOOPBACK: z.enum(["true", "false", "1", "0"]).default("false"),
  /** Report forwarding: the first retry waits this long, each next one twice as long (capped at 1 h). */
  FORWARDING_RETRY_BASE_SECONDS: z.coerce.number().min(0).max(3600).default(30),
  /** How often the forwarding worker looks for due deliveries (seconds); it is also kicked on each event. */
  FORWARDING_POLL_SECONDS: z.coerce.number().min(0.05).max(3600).default(5),
  /** How often the report deadline job runs (seconds); it also runs once at start. */
  DEADLINE_JOB_INTERVAL_SECONDS: z.coerce.number().int().min(10).max(86_400).default(3600),
  /** How often the watchlist alert job looks for records written since its last run (seconds). */
  WATCH_ALERT_INTERVAL_SECONDS: z.coerce.number().int().min(5).max(86_400).default(60),
  /**
   * The Wordfence Intelligence v3 feed (issue 34, decision 035): unset, the source is off. Sent as
   * `Authorization: Bearer <key>`; never logged.
   */
  WORDFENCE_API_KEY: optionalText,
  WORDFENCE_FEED_URL: z
    .url({ protocol: /^https?$/, message: "must be an http:// or https:// URL" })
    .default("https://www.wordfence.com/api/intelligence/v3/vulnerabilities/production"),
  /** CISA's Known Exploited Vulnerabilities catalog (JSON); `off` disables the source. */
  KEV_URL: sourceUrl("https://www.cisa.gov/sites/default/files/feeds/known_exploited_vulnerabilities.json"),
  /** FIRST's EPSS scores of the day (CSV, gzipped or not); `off` disables the source. */
  EPSS_URL: sourceUrl("https://epss.empiricalsecurity.com/epss_scores-current.csv.gz"),
  /** The WordPress.org plugin and theme directory API; `off` disables the source. */
  WPORG_API_URL: sourceUrl("https://api.wordpress.org"),
  /** How often each configured data source is synced (seconds); also once soon after start when due. */
  DATA_SYNC_INTERVAL_SECONDS: z.coerce.number().int().min(60).max(604_800).default(3600),
  /**
   * Who takes payment for plan changes (decision 011). `builtin`, the only one without provider keys,
   * accepts the change as paid and keeps the invoice; a Stripe or Paddle adapter adds its name here.
   */
  BILLING_PROVIDER: z.enum(BILLING_PROVIDERS).default("builtin"),
  SENTRY_DSN: optionalText.pipe(z.url().optional()),
  /** Behind a reverse proxy: trust its X-Forwarded-For (client IPs for rate limits and sessions). */
  TRUST_PROXY: z.enum(["on", "off", "true", "false", "1", "0"]).default("off"),
  /**
   * Multiplies every sign-in, magic-link, reset and registration rate limit (each stays at least 1).
   * For load tests, which send every request from one address; leave it at 1 in production.
   */
  AUTH_RATE_LIMIT_FACTOR: z.coerce.number().positive().max(1_000_000).default(1),
  /**
   * The public API's rate limit (`/api/v1/*`, decision 028): requests per window per client address
   * without an API key, and per API key. A batch check costs 1 + 1 per 50 items. Load tests and the
   * e2e servers raise the anonymous budget, since they send everything from one address.
   */
  API_RATE_LIMIT_ANONYMOUS: z.coerce.number().int().min(1).max(1_000_000_000).default(300),
  API_RATE_LIMIT_KEY: z.coerce.number().int().min(1).max(1_000_000_000).default(3000),
  API_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /**
   * The event loop not turning for this long ends the process, for its supervisor to start it again
   * (stall-watchdog.ts); 0 turns the watchdog off. Unset: 60, or off when started with a debugger.
   */
  STALL_LIMIT_SECONDS: z.coerce.number().int().min(0).max(86_400).optional(),
  /** `auto` imports the bundled real data into an empty database at start; `off` leaves it empty. */
  SEED: z.enum(["auto", "off"]).default("auto"),
  SITE_NAME: z.string().min(1).default("Pressguard"),
  /** Defaults to APP_URL. */
  SITE_URL: optionalText,
  SITE_INDEXABLE: z.string().optional(),
  /**
   * The Contact of /.well-known/security.txt (RFC 9116): mailto: or https: URIs, comma-separated.
   * Unset: the site's own report page, SITE_URL/database/report (decision 026).
   */
  SECURITY_CONTACT: securityContacts,
  SITE_TRAILING_SLASH: z.string().optional(),
  AUTH_MODE: z.enum(["cookie", "token"]).default("cookie"),
  AUTH_TOKEN_STORAGE: optionalText,
  AUTH_LOGIN_ENDPOINT: explicitText,
  AUTH_LOGOUT_ENDPOINT: explicitText,
  AUTH_REDIRECT_ON_LOGIN: explicitText,
  AUTH_REDIRECT_ON_LOGOUT: explicitText,
});

/** Hosts a browser on this machine reaches as `localhost` (loopback, or every interface). */
const LOCAL_HOSTS = new Set(["127.0.0.1", "::1", "0.0.0.0", "::", "localhost"]);

/** The public base URL when APP_URL is unset: the address the server listens on. */
function defaultAppUrl(host: string, port: number): string {
  const name = LOCAL_HOSTS.has(host) ? "localhost" : host.includes(":") ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

/** A redirect option: a path, or the string "false" for "stay where you are"; empty is undefined. */
function redirectOption(value: string | undefined, fallback: string | false | undefined) {
  if (value === undefined) return fallback;
  if (value === "") return undefined;
  return value.toLowerCase() === "false" ? false : value;
}

/** Only this machine reaches a loopback address (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
  if (host.toLowerCase() === "localhost") return true;
  const bare = host.replace(/^\[(.*)\]$/, "$1");
  return ipaddr.isValid(bare) && ipaddr.process(bare).range() === "loopback";
}

/**
 * Issue 38: a bare `npm start` said "Check your e-mail" with no way to read it. With DEV_MAILBOX
 * unset, the mailbox opens for a start that only its own machine can reach and that has nowhere else
 * to send mail: NODE_ENV unset or development, HOST loopback, no SMTP_URL, no proxy in front
 * (TRUST_PROXY off, APP_URL unset or on a loopback host). Any of these otherwise keeps it closed.
 */
function opensMailboxByDefault(
  vars: { NODE_ENV?: string; HOST: string; SMTP_URL?: string; TRUST_PROXY: string },
  appUrl: string,
): boolean {
  return (
    (vars.NODE_ENV === undefined || vars.NODE_ENV === "development") &&
    isLoopbackHost(vars.HOST) &&
    !vars.SMTP_URL &&
    !["on", "true", "1"].includes(vars.TRUST_PROXY) &&
    isLoopbackHost(new URL(appUrl).hostname)
  );
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

function issuesOf(error: z.ZodError, prefix: (path: PropertyKey[]) => string): string[] {
  return error.issues.map((issue) => `${prefix(issue.path)}: ${issue.message}`);
}

export function loadConfig(env: Record<string, string | undefined> = process.env) {
  const parsed = Env.safeParse(env);
  if (!parsed.success)
    throw new ConfigError(issuesOf(parsed.error, (path) => String(path[0] ?? "environment")));
  const vars = parsed.data;
  const appUrl = (vars.APP_URL ?? defaultAppUrl(vars.HOST, vars.PORT)).replace(/\/+$/, "");

  const site = SiteConfig.safeParse({
    name: vars.SITE_NAME,
    url: vars.SITE_URL ?? appUrl,
    indexable: vars.SITE_INDEXABLE ?? true,
    trailingSlash: vars.SITE_TRAILING_SLASH ?? false,
  });
  const defaults = DEFAULT_AUTH_CLIENT_CONFIG;
  const auth = AuthClientConfig.safeParse({
    ...defaults,
    mode: vars.AUTH_MODE,
    tokenStorage:
      vars.AUTH_MODE === "token"
        ? vars.AUTH_TOKEN_STORAGE
        : (vars.AUTH_TOKEN_STORAGE ?? defaults.tokenStorage),
    endpoints: {
      ...defaults.endpoints,
      ...(vars.AUTH_LOGIN_ENDPOINT !== undefined && { login: vars.AUTH_LOGIN_ENDPOINT }),
      ...(vars.AUTH_LOGOUT_ENDPOINT !== undefined && { logout: vars.AUTH_LOGOUT_ENDPOINT }),
    },
    redirect: {
      ...defaults.redirect,
      onLogin: redirectOption(vars.AUTH_REDIRECT_ON_LOGIN, defaults.redirect.onLogin),
      onLogout: redirectOption(vars.AUTH_REDIRECT_ON_LOGOUT, defaults.redirect.onLogout),
    },
  });
  const problems = [
    ...(site.success ? [] : issuesOf(site.error, (path) => `SITE_${String(path[0]).toUpperCase()}`)),
    ...(auth.success ? [] : issuesOf(auth.error, (path) => `auth client (${path.join(".") || "config"})`)),
  ];
  // The captcha guards anonymous submission: switching it off is for tests and development only,
  // said explicitly; a bare `npm start` (NODE_ENV unset) may be the one that faces the internet.
  if (vars.CAPTCHA === "off" && vars.NODE_ENV !== "test" && vars.NODE_ENV !== "development")
    problems.push("CAPTCHA: off is only allowed with NODE_ENV=test or NODE_ENV=development");
  const devMailbox =
    vars.DEV_MAILBOX === undefined
      ? opensMailboxByDefault(vars, appUrl)
      : ["on", "true", "1"].includes(vars.DEV_MAILBOX);
  if (devMailbox && !isLoopbackHost(vars.HOST))
    problems.push(
      `DEV_MAILBOX: on is refused while HOST (${vars.HOST}) is not a loopback address: the mailbox shows every sign-in link to whoever reaches it`,
    );
  if (vars.CAPTCHA === "recaptcha" && !(vars.RECAPTCHA_SITE_KEY && vars.RECAPTCHA_SECRET_KEY))
    problems.push("CAPTCHA: recaptcha needs both RECAPTCHA_SITE_KEY and RECAPTCHA_SECRET_KEY");
  if (vars.ATTACHMENTS_STORE === "s3" && !vars.S3_BUCKET)
    problems.push("S3_BUCKET: ATTACHMENTS_STORE=s3 needs the bucket's name");
  if (Boolean(vars.S3_ACCESS_KEY_ID) !== Boolean(vars.S3_SECRET_ACCESS_KEY))
    problems.push("S3_ACCESS_KEY_ID: set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither");
  if (!site.success || !auth.success || problems.length > 0) throw new ConfigError(problems);
  const siteUrl = site.data.url.replace(/\/+$/, "");

  return {
    env: vars.NODE_ENV ?? "development",
    /** False when NODE_ENV is unset (the start-up banner says so). */
    envIsExplicit: vars.NODE_ENV !== undefined,
    isProduction: vars.NODE_ENV === "production",
    database: vars.DATABASE_URL
      ? ({ url: vars.DATABASE_URL, readUrl: vars.DATABASE_READ_URL } as const)
      : vars.PGLITE_DIR
        ? ({ pgliteDir: vars.PGLITE_DIR } as const)
        : ({
            embeddedDir: vars.EMBEDDED_DB_DIR,
            runAs: vars.EMBEDDED_DB_USER,
            legacyPgliteDir: join(dirname(vars.EMBEDDED_DB_DIR), "pglite"),
          } as const),
    seed: vars.SEED,
    port: vars.PORT,
    host: vars.HOST,
    appUrl,
    smtpUrl: vars.SMTP_URL,
    mailFrom: vars.MAIL_FROM,
    devMailbox,
    /** Opened by `opensMailboxByDefault` rather than by DEV_MAILBOX: no warning, the banner says where. */
    devMailboxByDefault: devMailbox && vars.DEV_MAILBOX === undefined,
    captcha: vars.CAPTCHA,
    /** Unset: generated once and kept in the database, shared by every instance (db/signing-keys.ts). */
    captchaHmacKey: vars.CAPTCHA_HMAC_KEY,
    recaptcha:
      vars.RECAPTCHA_SITE_KEY && vars.RECAPTCHA_SECRET_KEY
        ? {
            siteKey: vars.RECAPTCHA_SITE_KEY,
            secretKey: vars.RECAPTCHA_SECRET_KEY,
            verifyUrl: vars.RECAPTCHA_VERIFY_URL,
            minScore: vars.RECAPTCHA_MIN_SCORE,
          }
        : undefined,
    /** Unset: generated once and kept in the database, shared by every instance (db/signing-keys.ts). */
    previewTokenKey: vars.PREVIEW_TOKEN_KEY,
    /** The key variables left unset, so signed with the keys kept in the database. */
    storedKeys: [
      ...(vars.CAPTCHA_HMAC_KEY ? [] : ["CAPTCHA_HMAC_KEY"]),
      ...(vars.PREVIEW_TOKEN_KEY ? [] : ["PREVIEW_TOKEN_KEY"]),
    ],
    deadlineJobIntervalSeconds: vars.DEADLINE_JOB_INTERVAL_SECONDS,
    watchAlertIntervalSeconds: vars.WATCH_ALERT_INTERVAL_SECONDS,
    forwarding: {
      allowLoopback: ["true", "1"].includes(vars.FORWARDING_ALLOW_LOOPBACK),
      retryBaseSeconds: vars.FORWARDING_RETRY_BASE_SECONDS,
      pollSeconds: vars.FORWARDING_POLL_SECONDS,
    },
    /** The upstream data sources (decision 035); a null URL or key is a source switched off. */
    dataSources: {
      intervalSeconds: vars.DATA_SYNC_INTERVAL_SECONDS,
      wordfence: vars.WORDFENCE_API_KEY
        ? { feedUrl: vars.WORDFENCE_FEED_URL, apiKey: vars.WORDFENCE_API_KEY }
        : null,
      kevUrl: vars.KEV_URL,
      epssUrl: vars.EPSS_URL,
      wporgApiUrl: vars.WPORG_API_URL,
    },
    billingProvider: vars.BILLING_PROVIDER,
    attachmentsDir: vars.ATTACHMENTS_DIR,
    exportsDir: vars.EXPORTS_DIR,
    attachmentsStore:
      vars.ATTACHMENTS_STORE === "s3" && vars.S3_BUCKET
        ? ({
            kind: "s3",
            endpoint: vars.S3_ENDPOINT,
            bucket: vars.S3_BUCKET,
            region: vars.S3_REGION,
            accessKeyId: vars.S3_ACCESS_KEY_ID,
            secretAccessKey: vars.S3_SECRET_ACCESS_KEY,
            forcePathStyle: vars.S3_FORCE_PATH_STYLE
              ? ["on", "true", "1"].includes(vars.S3_FORCE_PATH_STYLE)
              : vars.S3_ENDPOINT !== undefined,
          } as const)
        : ({ kind: "database" } as const),
    sentryDsn: vars.SENTRY_DSN,
    logLevel: vars.LOG_LEVEL,
    stallLimitSeconds: vars.STALL_LIMIT_SECONDS,
    trustProxy: ["on", "true", "1"].includes(vars.TRUST_PROXY),
    authRateLimitFactor: vars.AUTH_RATE_LIMIT_FACTOR,
    apiRateLimit: {
      anonymousBudget: vars.API_RATE_LIMIT_ANONYMOUS,
      keyBudget: vars.API_RATE_LIMIT_KEY,
      windowSeconds: vars.API_RATE_LIMIT_WINDOW_SECONDS,
    },
    site: site.data,
    /** The Contact lines of security.txt: SECURITY_CONTACT, else where anyone reports a vulnerability. */
    securityContacts: vars.SECURITY_CONTACT ?? [
      `${siteUrl}/database/report${site.data.trailingSlash ? "/" : ""}`,
    ],
    auth: auth.data,
  };
}

export type Config = ReturnType<typeof loadConfig>;

/** Query parameters canonical links keep (spec §9); everything else is dropped. */
const CANONICAL_QUERY_WHITELIST = [
  "page",
  "q",
  "kind",
  "type",
  "severity",
  "patched",
  "year",
  "sort",
  // The product page's present/fixed tab (apps/web/app/routes/database/product-vulnerabilities.tsx).
  "tab",
];

function captchaClientConfigOf(config: Config): CaptchaClientConfig {
  if (config.captcha === "recaptcha" && config.recaptcha)
    return { mode: "recaptcha", siteKey: config.recaptcha.siteKey };
  return { mode: config.captcha === "off" ? "off" : "altcha" };
}

/** What the browser may see of the configuration: an explicit allow-list. */
export function publicConfigOf(config: Config, buildId: string): PublicConfig {
  return {
    site: config.site,
    auth: config.auth,
    apiBase: config.auth.baseUrl,
    buildId,
    ...(config.sentryDsn && { sentryDsn: config.sentryDsn }),
    canonicalQueryWhitelist: CANONICAL_QUERY_WHITELIST,
    captcha: captchaClientConfigOf(config),
  };
}
