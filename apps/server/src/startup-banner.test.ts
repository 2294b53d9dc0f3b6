import { describe, expect, it } from "vitest";
import { loadConfig } from "./config.ts";
import { logStartupBanner, startupBannerOf } from "./startup-banner.ts";

const LOCAL = { address: "http://127.0.0.1:3000" };

describe("the start-up banner", () => {
  it("says which mode runs: database, mail, captcha, mailbox, auth, listen address and APP_URL", () => {
    const { summary, warnings } = startupBannerOf(loadConfig({}), LOCAL);
    expect(summary).toBe(
      "Pressguard mode: development (NODE_ENV unset); listening on http://127.0.0.1:3000; " +
        "APP_URL http://localhost:3000; database: embedded PostgreSQL (./data/postgres); " +
        "mail: kept in the database (no SMTP_URL); captcha: altcha; dev mailbox: on, read mail at http://localhost:3000/dev/mail; auth: cookie; trust proxy: off; " +
        "attachments: in the database; signing keys kept in the database: CAPTCHA_HMAC_KEY, PREVIEW_TOKEN_KEY",
    );
    // The default start on loopback is safe: nothing to warn about.
    expect(warnings).toEqual([]);
  });

  it("never shows the credentials of the database or SMTP URLs", () => {
    const { summary } = startupBannerOf(
      loadConfig({
        NODE_ENV: "production",
        DATABASE_URL: "postgres://app:db-secret@db.internal:5432/app",
        SMTP_URL: "smtps://mailer:smtp-secret@smtp.example:465",
        ATTACHMENTS_STORE: "s3",
        S3_ENDPOINT: "https://minio.internal:9000",
        S3_BUCKET: "attachments",
        S3_ACCESS_KEY_ID: "s3-access-secret",
        S3_SECRET_ACCESS_KEY: "s3-secret",
      }),
      LOCAL,
    );
    expect(summary).toContain("attachments: S3 bucket attachments at minio.internal:9000");
    expect(summary).toContain("database: PostgreSQL at db.internal:5432");
    expect(summary).toContain("mail: SMTP via smtp.example:465");
    expect(summary).not.toMatch(/secret/);
  });

  it("warns about every setting unsafe for the internet", () => {
    const { warnings } = startupBannerOf(
      loadConfig({
        NODE_ENV: "development",
        HOST: "0.0.0.0",
        CAPTCHA: "off",
        DATABASE_URL: "postgres://app@db:5432/app",
        FORWARDING_ALLOW_LOOPBACK: "true",
      }),
      { address: "http://0.0.0.0:3000" },
    );
    expect(warnings).toEqual([
      "CAPTCHA=off: signed-out reports are not checked for bots; never use it on a public site",
      "HOST 0.0.0.0 is reachable from other machines but NODE_ENV is not production",
      "HOST 0.0.0.0 is reachable from other machines without TRUST_PROXY=on: put a TLS reverse proxy in front and set TRUST_PROXY=on, or rate limits and sessions see the proxy's address",
      "APP_URL http://localhost:3000 is not https: session cookies go without Secure and e-mailed links travel in clear",
      "no SMTP_URL: e-mail is only kept in the database, nobody receives sign-in links or notices",
      "FORWARDING_ALLOW_LOOPBACK=true: vendor webhooks may reach services on this machine (tests only)",
    ]);
  });

  it("warns about the open mailbox, and is quiet for a well-configured production instance", () => {
    expect(startupBannerOf(loadConfig({ DEV_MAILBOX: "on" }), LOCAL).warnings).toEqual([
      "DEV_MAILBOX=on: /dev/mail shows every sign-in link, PIN, password reset link and invitation to whoever reaches this server",
    ]);
    const production = loadConfig({
      NODE_ENV: "production",
      HOST: "0.0.0.0",
      TRUST_PROXY: "on",
      APP_URL: "https://pressguard.example",
      SMTP_URL: "smtp://smtp.example:587",
      DATABASE_URL: "postgres://app@db:5432/app",
      CAPTCHA_HMAC_KEY: "c".repeat(32),
      PREVIEW_TOKEN_KEY: "p".repeat(32),
    });
    expect(startupBannerOf(production, { address: "http://0.0.0.0:3000" })).toEqual({
      summary: expect.stringMatching(/^Pressguard mode: production; /),
      warnings: [],
    });
  });

  it("logs the mode at info and each warning at warn, so LOG_LEVEL=warn still shows them", () => {
    const lines: string[] = [];
    const log = {
      info: (m: string) => lines.push(`info ${m}`),
      warn: (m: string) => lines.push(`warn ${m}`),
    };
    logStartupBanner(log, loadConfig({ DEV_MAILBOX: "on" }), LOCAL);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^info Pressguard mode: /);
    expect(lines[1]).toMatch(/^warn UNSAFE FOR THE INTERNET: DEV_MAILBOX=on/);
  });
});
