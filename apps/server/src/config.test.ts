import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, publicConfigOf } from "./config.ts";

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error("expected the configuration to be rejected");
}

describe("loadConfig", () => {
  it("uses the documented defaults on an empty environment", () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.host).toBe("127.0.0.1");
    // The embedded PostgreSQL (decision 037); a PGlite directory of an earlier install beside it is copied in.
    expect(config.database).toEqual({
      embeddedDir: "./data/postgres",
      runAs: undefined,
      legacyPgliteDir: "data/pglite",
    });
    expect(config.appUrl).toBe("http://localhost:3000");
    expect(config.captcha).toBe("altcha");
    expect(config.site).toMatchObject({
      url: "http://localhost:3000",
      indexable: true,
      trailingSlash: false,
    });
    expect(config.auth.mode).toBe("cookie");
  });

  it("keeps PGlite for an explicit PGLITE_DIR and names the embedded server's directory and account", () => {
    expect(loadConfig({ PGLITE_DIR: "/srv/pglite" }).database).toEqual({ pgliteDir: "/srv/pglite" });
    expect(loadConfig({ EMBEDDED_DB_DIR: "/srv/pg/cluster", EMBEDDED_DB_USER: "pgsvc" }).database).toEqual({
      embeddedDir: "/srv/pg/cluster",
      runAs: "pgsvc",
      legacyPgliteDir: "/srv/pg/pglite",
    });
    expect(loadConfig({ DATABASE_URL: "postgres://u@db/app", PGLITE_DIR: "/srv/pglite" }).database).toEqual({
      url: "postgres://u@db/app",
      readUrl: undefined,
    });
  });

  it("derives the default APP_URL (the base of every e-mail link) from PORT and HOST", () => {
    expect(loadConfig({ PORT: "3221" }).appUrl).toBe("http://localhost:3221");
    expect(loadConfig({ PORT: "3221" }).site.url).toBe("http://localhost:3221");
    expect(loadConfig({ PORT: "8080", HOST: "0.0.0.0" }).appUrl).toBe("http://localhost:8080");
    expect(loadConfig({ PORT: "8080", HOST: "::" }).appUrl).toBe("http://localhost:8080");
    expect(loadConfig({ PORT: "8080", HOST: "192.0.2.7" }).appUrl).toBe("http://192.0.2.7:8080");
    expect(loadConfig({ PORT: "8080", HOST: "2001:db8::7" }).appUrl).toBe("http://[2001:db8::7]:8080");
    expect(loadConfig({ PORT: "8080", HOST: "pressguard.internal" }).appUrl).toBe(
      "http://pressguard.internal:8080",
    );
    expect(loadConfig({ PORT: "8080", APP_URL: "https://vdp.example.com/" }).appUrl).toBe(
      "https://vdp.example.com",
    );
  });

  // Issue 15: the mailbox signs anyone in. Issue 38: a bare `npm start` said "Check your e-mail" with
  // no way to read it. So it opens by itself only where no one else can reach it and no mail leaves.
  it("opens the development mailbox when switched on, or by default on a loopback start without SMTP", () => {
    expect(loadConfig({}).devMailbox).toBe(true);
    expect(loadConfig({ NODE_ENV: "development" }).devMailbox).toBe(true);
    expect(loadConfig({ APP_URL: "http://127.0.0.1:3000" }).devMailbox).toBe(true);
    expect(loadConfig({ NODE_ENV: "test" }).devMailbox).toBe(false);
    expect(loadConfig({ NODE_ENV: "production" }).devMailbox).toBe(false);
    expect(loadConfig({ HOST: "0.0.0.0" }).devMailbox).toBe(false);
    expect(loadConfig({ SMTP_URL: "smtp://mail.example:25" }).devMailbox).toBe(false);
    expect(loadConfig({ TRUST_PROXY: "on" }).devMailbox).toBe(false);
    expect(loadConfig({ APP_URL: "https://vulns.example" }).devMailbox).toBe(false);
    expect(loadConfig({ DEV_MAILBOX: "on" }).devMailbox).toBe(true);
    expect(loadConfig({ DEV_MAILBOX: "true", HOST: "::1" }).devMailbox).toBe(true);
    expect(loadConfig({ DEV_MAILBOX: "1", HOST: "localhost" }).devMailbox).toBe(true);
    expect(loadConfig({ DEV_MAILBOX: "off" }).devMailbox).toBe(false);
    expect(problemsOf({ DEV_MAILBOX: "maybe" })[0]).toMatch(/^DEV_MAILBOX: /);
  });

  it("refuses to start with the mailbox on while listening on an address other machines reach", () => {
    for (const host of ["0.0.0.0", "::", "192.168.1.20", "pressguard.example"])
      expect(problemsOf({ DEV_MAILBOX: "on", HOST: host })).toEqual([
        `DEV_MAILBOX: on is refused while HOST (${host}) is not a loopback address: the mailbox shows every sign-in link to whoever reaches it`,
      ]);
    expect(loadConfig({ DEV_MAILBOX: "off", HOST: "0.0.0.0" }).devMailbox).toBe(false);
  });

  it("chooses PostgreSQL when DATABASE_URL is set", () => {
    const config = loadConfig({
      DATABASE_URL: "postgres://u:p@db:5432/app",
      DATABASE_READ_URL: "postgres://u:p@replica/app",
    });
    expect(config.database).toEqual({
      url: "postgres://u:p@db:5432/app",
      readUrl: "postgres://u:p@replica/app",
    });
  });

  it("names the variable that is wrong", () => {
    expect(problemsOf({ PORT: "eighty" })[0]).toMatch(/^PORT: /);
    expect(problemsOf({ DATABASE_URL: "mysql://x" })[0]).toMatch(/^DATABASE_URL: must be a postgres/);
    expect(problemsOf({ CAPTCHA: "hcaptcha" })[0]).toMatch(/^CAPTCHA: /);
    expect(problemsOf({ APP_URL: "not a url" })[0]).toMatch(/^APP_URL: /);
    expect(problemsOf({ AUTH_RATE_LIMIT_FACTOR: "0" })[0]).toMatch(/^AUTH_RATE_LIMIT_FACTOR: /);
    expect(problemsOf({ AUTH_RATE_LIMIT_FACTOR: "lots" })[0]).toMatch(/^AUTH_RATE_LIMIT_FACTOR: /);
  });

  it("keeps the captcha on in production and signs challenges with a long enough key", () => {
    expect(problemsOf({ NODE_ENV: "production", CAPTCHA: "off" })[0]).toMatch(
      /^CAPTCHA: off is only allowed/,
    );
    expect(loadConfig({ NODE_ENV: "test", CAPTCHA: "off" }).captcha).toBe("off");
    expect(loadConfig({ NODE_ENV: "development", CAPTCHA: "off" }).captcha).toBe("off");
    // Unset NODE_ENV (a bare `npm start`) is not an explicit test or development setting.
    expect(problemsOf({ CAPTCHA: "off" })[0]).toMatch(/^CAPTCHA: off is only allowed/);
    expect(problemsOf({ CAPTCHA_HMAC_KEY: "short" })[0]).toMatch(/^CAPTCHA_HMAC_KEY: /);
    expect(loadConfig({ CAPTCHA_HMAC_KEY: "k".repeat(32) }).captchaHmacKey).toBe("k".repeat(32));
    // Unset: the one kept in the database (signing-keys.test.ts).
    expect(loadConfig({}).captchaHmacKey).toBeUndefined();
    expect(loadConfig({}).storedKeys).toEqual(["CAPTCHA_HMAC_KEY", "PREVIEW_TOKEN_KEY"]);
    expect(problemsOf({ PREVIEW_TOKEN_KEY: "short" })[0]).toMatch(/^PREVIEW_TOKEN_KEY: /);
    expect(loadConfig({ PREVIEW_TOKEN_KEY: "p".repeat(32) }).previewTokenKey).toBe("p".repeat(32));
    expect(loadConfig({}).previewTokenKey).toBeUndefined();
    expect(loadConfig({}).deadlineJobIntervalSeconds).toBe(3600);
    expect(loadConfig({}).attachmentsDir).toBe("./data/attachments");
    expect(loadConfig({}).exportsDir).toBe("./data/exports");
    expect(loadConfig({}).attachmentsStore).toEqual({ kind: "database" });
    expect(problemsOf({ DEADLINE_JOB_INTERVAL_SECONDS: "1" })[0]).toMatch(/^DEADLINE_JOB_INTERVAL_SECONDS: /);
  });

  it("stores attachments in the database unless S3 is configured, and says what S3 lacks", () => {
    expect(problemsOf({ ATTACHMENTS_STORE: "s3" })).toEqual([
      "S3_BUCKET: ATTACHMENTS_STORE=s3 needs the bucket's name",
    ]);
    expect(problemsOf({ ATTACHMENTS_STORE: "s3", S3_BUCKET: "b", S3_ACCESS_KEY_ID: "id" })).toEqual([
      "S3_ACCESS_KEY_ID: set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither",
    ]);
    expect(problemsOf({ ATTACHMENTS_STORE: "disk" })[0]).toMatch(/^ATTACHMENTS_STORE: /);
    expect(problemsOf({ ATTACHMENTS_STORE: "s3", S3_BUCKET: "b", S3_ENDPOINT: "minio:9000" })[0]).toMatch(
      /^S3_ENDPOINT: /,
    );
    expect(
      loadConfig({
        ATTACHMENTS_STORE: "s3",
        S3_BUCKET: "attachments",
        S3_ENDPOINT: "http://minio:9000",
        S3_ACCESS_KEY_ID: "id",
        S3_SECRET_ACCESS_KEY: "secret",
      }).attachmentsStore,
    ).toEqual({
      kind: "s3",
      endpoint: "http://minio:9000",
      bucket: "attachments",
      region: "us-east-1",
      accessKeyId: "id",
      secretAccessKey: "secret",
      // A custom endpoint is addressed by path unless told otherwise; AWS itself by host name.
      forcePathStyle: true,
    });
    expect(
      loadConfig({ ATTACHMENTS_STORE: "s3", S3_BUCKET: "b", S3_REGION: "eu-west-1" }).attachmentsStore,
    ).toMatchObject({
      region: "eu-west-1",
      forcePathStyle: false,
    });
    // S3_* without ATTACHMENTS_STORE=s3 change nothing.
    expect(loadConfig({ S3_BUCKET: "b" }).attachmentsStore).toEqual({ kind: "database" });
  });

  it("keeps the auth rate limits as they are unless a load test raises them", () => {
    expect(loadConfig({}).authRateLimitFactor).toBe(1);
    expect(loadConfig({ AUTH_RATE_LIMIT_FACTOR: "1000" }).authRateLimitFactor).toBe(1000);
  });

  it("coerces the site's indexable and trailingSlash, where the string false means false", () => {
    expect(loadConfig({ SITE_INDEXABLE: "false", SITE_TRAILING_SLASH: "true" }).site).toMatchObject({
      indexable: false,
      trailingSlash: true,
    });
    expect(loadConfig({ SITE_INDEXABLE: "FALSE" }).site.indexable).toBe(false);
    expect(loadConfig({ SITE_INDEXABLE: "yes" }).site.indexable).toBe(true);
  });

  it("names the site's report page as the security.txt Contact unless SECURITY_CONTACT says otherwise", () => {
    expect(loadConfig({}).securityContacts).toEqual(["http://localhost:3000/database/report"]);
    expect(
      loadConfig({ SITE_URL: "https://vdp.example.com/", SITE_TRAILING_SLASH: "true" }).securityContacts,
    ).toEqual(["https://vdp.example.com/database/report/"]);
    expect(
      loadConfig({ SECURITY_CONTACT: " mailto:security@example.com , https://example.com/security " })
        .securityContacts,
    ).toEqual(["mailto:security@example.com", "https://example.com/security"]);
    expect(loadConfig({ SECURITY_CONTACT: "" }).securityContacts).toEqual([
      "http://localhost:3000/database/report",
    ]);
  });

  it("refuses a security contact that is not a mailto: or https: URI", () => {
    for (const contact of [
      "security@example.com",
      "http://example.com/security",
      "mailto:not-an-address",
      "https://example.com/ok, ftp://example.com",
      "tel:+1-201-555-0123",
    ])
      expect(problemsOf({ SECURITY_CONTACT: contact }), contact).toEqual([
        "SECURITY_CONTACT: must be mailto: or https: URIs separated by commas, such as mailto:security@example.com",
      ]);
  });

  it("adds https:// to a site url without protocol", () => {
    expect(loadConfig({ SITE_URL: "pressguard.example" }).site.url).toBe("https://pressguard.example");
    expect(loadConfig({ SITE_URL: "http://localhost:3000/" }).site.url).toBe("http://localhost:3000");
  });

  it("stops with the specification's messages when auth endpoints or redirects are missing", () => {
    expect(problemsOf({ AUTH_LOGIN_ENDPOINT: " " }).join("\n")).toContain(
      "sanctum.endpoints.login is not defined",
    );
    expect(problemsOf({ AUTH_LOGOUT_ENDPOINT: "" }).join("\n")).toContain(
      "sanctum.endpoints.logout is not defined",
    );
    expect(problemsOf({ AUTH_REDIRECT_ON_LOGIN: "" }).join("\n")).toContain(
      "sanctum.redirect.onLogin is not defined",
    );
    expect(problemsOf({ AUTH_REDIRECT_ON_LOGOUT: "" }).join("\n")).toContain(
      "sanctum.redirect.onLogout is not defined",
    );
  });

  it("requires a token storage in token mode", () => {
    expect(problemsOf({ AUTH_MODE: "token" }).join("\n")).toContain(
      "sanctum.tokenStorage is not defined in app.config.ts",
    );
    expect(loadConfig({ AUTH_MODE: "token", AUTH_TOKEN_STORAGE: "cookie" }).auth.tokenStorage).toBe("cookie");
  });

  it("accepts false as a redirect target", () => {
    expect(loadConfig({ AUTH_REDIRECT_ON_LOGIN: "false" }).auth.redirect.onLogin).toBe(false);
  });

  it("gives the browser only the public allow-list", () => {
    const config = loadConfig({
      DATABASE_URL: "postgres://secret@db/app",
      SMTP_URL: "smtp://user:pass@mail",
    });
    const exposed = JSON.stringify(publicConfigOf(config, "build-1"));
    expect(exposed).not.toContain("secret");
    expect(exposed).not.toContain("pass@mail");
    expect(JSON.parse(exposed)).toMatchObject({ apiBase: "/api", buildId: "build-1" });
  });
});
