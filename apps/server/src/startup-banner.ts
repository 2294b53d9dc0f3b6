import { type Config, isLoopbackHost } from "./config.ts";

/**
 * What the operator sees at start-up (issue 15): which mode is running, and a warning for every
 * setting that is unsafe on a server the internet reaches. Secrets never appear: the database and
 * SMTP URLs are shown by host only.
 */
export interface StartupFacts {
  /** The address the server listens on, as `app.listen` returned it. */
  address: string;
}

export interface StartupBanner {
  summary: string;
  warnings: string[];
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "(unparsable URL)";
  }
}

function databaseOf(config: Config): string {
  const { database } = config;
  if ("embeddedDir" in database) return `embedded PostgreSQL (${database.embeddedDir})`;
  if ("pgliteDir" in database) return `embedded PGlite (${database.pgliteDir})`;
  return `PostgreSQL at ${hostOf(database.url)}${database.readUrl ? `, reads at ${hostOf(database.readUrl)}` : ""}`;
}

export function startupBannerOf(config: Config, { address }: StartupFacts): StartupBanner {
  const mode = config.envIsExplicit ? config.env : `${config.env} (NODE_ENV unset)`;
  const summary = [
    `Pressguard mode: ${mode}`,
    `listening on ${address}`,
    `APP_URL ${config.appUrl}`,
    `database: ${databaseOf(config)}`,
    `mail: ${config.smtpUrl ? `SMTP via ${hostOf(config.smtpUrl)}` : "kept in the database (no SMTP_URL)"}`,
    `captcha: ${config.captcha}`,
    `dev mailbox: ${config.devMailbox ? `on, read mail at ${config.appUrl}/dev/mail` : "off"}`,
    `auth: ${config.auth.mode}`,
    `trust proxy: ${config.trustProxy ? "on" : "off"}`,
    `attachments: ${config.attachmentsStore.kind === "s3" ? `S3 bucket ${config.attachmentsStore.bucket}${config.attachmentsStore.endpoint ? ` at ${hostOf(config.attachmentsStore.endpoint)}` : ""}` : "in the database"}`,
    ...(config.storedKeys.length > 0
      ? [`signing keys kept in the database: ${config.storedKeys.join(", ")}`]
      : []),
  ].join("; ");

  const reachable = !isLoopbackHost(config.host);
  const facingUsers = reachable || config.isProduction;
  const warnings: string[] = [];
  if (config.captcha === "off")
    warnings.push("CAPTCHA=off: signed-out reports are not checked for bots; never use it on a public site");
  if (config.devMailbox && !config.devMailboxByDefault)
    warnings.push(
      "DEV_MAILBOX=on: /dev/mail shows every sign-in link, PIN, password reset link and invitation to whoever reaches this server",
    );
  if (reachable && !config.isProduction)
    warnings.push(`HOST ${config.host} is reachable from other machines but NODE_ENV is not production`);
  if (reachable && !config.trustProxy)
    warnings.push(
      `HOST ${config.host} is reachable from other machines without TRUST_PROXY=on: put a TLS reverse proxy in front and set TRUST_PROXY=on, or rate limits and sessions see the proxy's address`,
    );
  if (facingUsers && !config.appUrl.startsWith("https:"))
    warnings.push(
      `APP_URL ${config.appUrl} is not https: session cookies go without Secure and e-mailed links travel in clear`,
    );
  if (facingUsers && !config.smtpUrl)
    warnings.push(
      "no SMTP_URL: e-mail is only kept in the database, nobody receives sign-in links or notices",
    );
  if (config.forwarding.allowLoopback)
    warnings.push(
      "FORWARDING_ALLOW_LOOPBACK=true: vendor webhooks may reach services on this machine (tests only)",
    );
  return { summary, warnings };
}

interface BannerLog {
  info: (message: string) => void;
  warn: (message: string) => void;
}

/** Logs the banner: the mode at info, each unsafe setting as a warning (seen even at LOG_LEVEL=warn). */
export function logStartupBanner(log: BannerLog, config: Config, facts: StartupFacts): void {
  const { summary, warnings } = startupBannerOf(config, facts);
  log.info(summary);
  for (const warning of warnings) log.warn(`UNSAFE FOR THE INTERNET: ${warning}`);
}
