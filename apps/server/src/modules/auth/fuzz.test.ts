import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiCaller, type InjectResult, registerUser } from "../../test/api-client.ts";
import { createTestApp } from "../../test/app.ts";

/**
 * Bad input on every auth endpoint (QUALITY.md): wrong types, missing and unknown fields, arrays,
 * null, deep nesting, oversized bodies, invalid JSON, wrong content types and malformed ids answer
 * a 4xx with a readable message, never a 5xx, and write nothing. The endpoints come from the
 * OpenAPI document (tag `auth`): one added without a row here fails the first test.
 */
let harness: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  harness = await createTestApp();
});
afterAll(() => harness.close());

const FUZZ_DOMAIN = "fuzz.example.test";
const ONE_MEGABYTE = 1_048_576;

/** `{"a":{"a":…}}` `depth` levels deep, as JSON text (JSON.stringify would recurse that deep). */
function nestedObject(depth: number, leaf = "1"): string {
  return `${'{"a":'.repeat(depth)}${leaf}${"}".repeat(depth)}`;
}
function nestedArray(depth: number): string {
  return `${"[".repeat(depth)}${"]".repeat(depth)}`;
}

interface Row {
  /** A concrete URL for the route (path parameters filled in with plausible values). */
  url: string;
  /**
   * The route's body: `schema` when it validates one (every well-formed but wrong body is a 4xx),
   * `none` when it takes none (a well-formed JSON body is ignored, so only transport errors —
   * invalid JSON, too large, unsupported type — must be 4xx there).
   */
  body: "schema" | "none";
  /** A valid body, the base for the unknown-field and wrong-type variants. */
  valid?: Record<string, unknown>;
  /** Wrong types and values specific to the route. */
  wrong?: unknown[];
  /** Malformed path parameters, each replacing the sample URL. */
  badUrls?: string[];
}

const fuzzEmail = () => `fuzz-${Math.random().toString(36).slice(2, 10)}@${FUZZ_DOMAIN}`;
const SAMPLE_UUID = "00000000-0000-4000-8000-000000000000";
const SQL_AND_HTML = `'; drop table users; -- <script>alert(1)</script>`;

/** Paths whose numeric id is malformed, out of range or hostile text. */
const badNumericIds = (prefix: string) =>
  ["abc", "-1", "0", "1.5", "99999999999999", "1e400", "%00", "%FF", encodeURIComponent(SQL_AND_HTML)].map(
    (id) => `${prefix}${id}`,
  );

const ROWS: Record<string, Row> = {
  "GET /api/csrf-cookie": { url: "/api/csrf-cookie", body: "none" },
  "POST /api/register": {
    url: "/api/register",
    body: "schema",
    valid: { name: "Fuzz", email: fuzzEmail(), password: "long enough pw", role: "researcher" },
    wrong: [
      {},
      { name: 1, email: 2, password: 3, role: 4 },
      { name: "A", email: "not-an-email", password: "short", role: "admin" },
      { name: "A", email: fuzzEmail(), password: "long enough pw", role: ["vendor"] },
      { name: "", email: fuzzEmail(), password: "long enough pw", role: "vendor" },
      { name: "A".repeat(101), email: fuzzEmail(), password: "long enough pw", role: "vendor" },
      { name: "A", email: fuzzEmail(), password: "p".repeat(201), role: "vendor" },
      { name: "A", email: `${"e".repeat(250)}@${FUZZ_DOMAIN}`, password: "long enough pw", role: "vendor" },
      { name: "A", email: `${SQL_AND_HTML}@${FUZZ_DOMAIN}`, password: "long enough pw", role: "vendor" },
      { name: "A", email: fuzzEmail(), password: "long enough pw", role: "vendor", token: "yes" },
      // PostgreSQL refuses NUL in text: it must be turned away before it reaches the database.
      { name: "Nul\u0000Byte", email: fuzzEmail(), password: "long enough pw", role: "researcher" },
    ],
  },
  "POST /api/login": {
    url: "/api/login",
    body: "schema",
    valid: { email: fuzzEmail(), password: "a password" },
    wrong: [
      {},
      { email: [], password: {} },
      { email: "a@b.test", password: "" },
      { email: "a@b.test", password: "x".repeat(1001) },
      { email: "a@b.test", password: "x", token: 1 },
      { email: "a@b.test", password: "x", code: 123456 },
      { email: "a@b.test", password: "x", code: "1".repeat(11) },
      { email: "a@b.test", password: "x", device_name: "d".repeat(201) },
      { email: `${SQL_AND_HTML}@b.test`, password: SQL_AND_HTML },
    ],
  },
  "POST /api/logout": { url: "/api/logout", body: "none" },
  "GET /api/user": { url: "/api/user", body: "none" },
  "POST /api/user/roles": {
    url: "/api/user/roles",
    body: "schema",
    valid: { role: "vendor" },
    wrong: [{}, { role: "staff" }, { role: 1 }, { role: ["vendor"] }, { role: null }],
  },
  "POST /api/user/two-factor": { url: "/api/user/two-factor", body: "none" },
  "POST /api/user/two-factor/confirm": {
    url: "/api/user/two-factor/confirm",
    body: "schema",
    valid: { code: "123456" },
    wrong: [{}, { code: 123456 }, { code: "" }, { code: "1".repeat(50) }, { code: null }],
  },
  "POST /api/user/two-factor/disable": {
    url: "/api/user/two-factor/disable",
    body: "schema",
    valid: { code: "123456" },
    wrong: [{}, { code: null }, { code: ["123456"] }, { code: true }],
  },
  "PUT /api/user/password": {
    url: "/api/user/password",
    body: "schema",
    valid: { current_password: "not the password", password: "long enough pw" },
    wrong: [
      {},
      { password: 1 },
      { password: null },
      { password: "short" },
      { password: "p".repeat(201) },
      { current_password: 1, password: "long enough pw" },
      { current_password: "c".repeat(1001), password: "long enough pw" },
      { password: ["long enough pw"] },
    ],
  },
  "GET /api/sessions": { url: "/api/sessions", body: "none" },
  "DELETE /api/sessions/{id}": {
    url: "/api/sessions/1",
    body: "none",
    badUrls: badNumericIds("/api/sessions/"),
  },
  "DELETE /api/tokens/{id}": {
    url: "/api/tokens/1",
    body: "none",
    badUrls: badNumericIds("/api/tokens/"),
  },
  "GET /api/api-keys": { url: "/api/api-keys", body: "none" },
  "POST /api/api-keys": {
    url: "/api/api-keys",
    body: "schema",
    valid: { name: "fuzz key", scopes: ["read"], expires_in_days: 30 },
    wrong: [
      {},
      { name: "", scopes: ["read"], expires_in_days: 30 },
      { name: "x".repeat(101), scopes: ["read"], expires_in_days: 30 },
      { name: SQL_AND_HTML, scopes: ["admin"], expires_in_days: 30 },
      { name: "k", scopes: "read", expires_in_days: 30 },
      { name: "k", scopes: ["read", "read", "read", "read"], expires_in_days: 30 },
      { name: "k", scopes: ["read"], expires_in_days: 0 },
      { name: "k", scopes: ["read"], expires_in_days: "30" },
      { name: "k", scopes: ["read"], expires_in_days: 10_000 },
    ],
  },
  "POST /api/magic-link": {
    url: "/api/magic-link",
    body: "schema",
    valid: { email: fuzzEmail() },
    wrong: [{}, { email: 5 }, { email: "" }, { email: "not-an-email" }, { email: [fuzzEmail()] }],
  },
  "POST /api/magic-link/{uuid}": {
    url: `/api/magic-link/${SAMPLE_UUID}`,
    body: "schema",
    valid: { token: false },
    wrong: [{ token: "yes" }, { token: 1 }],
    badUrls: [
      "/api/magic-link/'%20or%201=1",
      `/api/magic-link/${"u".repeat(101)}`,
      "/api/magic-link/%00",
      "/api/magic-link/%FF",
    ],
  },
  "GET /api/email/verify/{token}": {
    url: "/api/email/verify/unknown",
    body: "none",
    // A link opened in the browser: an unknown token (even `%00`, or `%FF`, which http/bad-url.ts reads
    // literally) redirects to `/?email_verified=0`.
    badUrls: [`/api/email/verify/${"t".repeat(101)}`],
  },
  "POST /api/email/verification-notification": { url: "/api/email/verification-notification", body: "none" },
  "POST /api/password/forgot": {
    url: "/api/password/forgot",
    body: "schema",
    valid: { email: fuzzEmail() },
    wrong: [{}, { email: null }, { email: 1 }, { email: "x".repeat(300) }],
  },
  "POST /api/password/reset": {
    url: "/api/password/reset",
    body: "schema",
    valid: { token: "unknown", password: "long enough pw" },
    wrong: [
      {},
      { token: 1, password: 2 },
      { token: "x", password: "short" },
      { token: "", password: "long enough pw" },
      { token: "t".repeat(101), password: "long enough pw" },
    ],
  },
};

/** One malformed request: a raw payload and its content type (undefined: no body at all). */
interface Attack {
  label: string;
  payload?: string | Buffer;
  contentType?: string;
  /** A transport error the parser must reject whatever the route (invalid JSON, too large, …). */
  alwaysRejected: boolean;
}

function attacksFor(row: Row): Attack[] {
  const json = (label: string, value: unknown): Attack => ({
    label,
    payload: JSON.stringify(value),
    contentType: "application/json",
    alwaysRejected: false,
  });
  const raw = (label: string, payload: string | Buffer, contentType?: string): Attack => ({
    label,
    payload,
    ...(contentType && { contentType }),
    alwaysRejected: true,
  });
  const valid = row.valid ?? {};
  const firstField = Object.keys(valid)[0] ?? "field";
  return [
    ...(row.wrong ?? []).map((body, index) => json(`wrong #${index + 1}`, body)),
    json("null", null),
    json("an empty array", []),
    json("the valid body in an array", [valid]),
    json("a string", "text"),
    json("a number", 42),
    json("true", true),
    json("an unknown field", { ...valid, is_staff: true }),
    json("every field null", Object.fromEntries(Object.keys(valid).map((key) => [key, null]))),
    json("every field an object", Object.fromEntries(Object.keys(valid).map((key) => [key, { $ne: "" }]))),
    {
      label: "a field nested 5 000 levels deep",
      payload: `{"${firstField}":${nestedObject(5_000)}}`,
      contentType: "application/json",
      alwaysRejected: false,
    },
    // Well-formed however deep: refused by the body schema, ignored by a route without one.
    {
      ...raw("an array nested 100 000 levels deep", nestedArray(100_000), "application/json"),
      alwaysRejected: false,
    },
    {
      ...raw("an object nested 100 000 levels deep", nestedObject(100_000), "application/json"),
      alwaysRejected: false,
    },
    raw("a body over 1 MB", JSON.stringify({ ...valid, huge: "x".repeat(ONE_MEGABYTE) }), "application/json"),
    raw("a 2 MB field", JSON.stringify({ [firstField]: "y".repeat(2 * ONE_MEGABYTE) }), "application/json"),
    raw("a text body over 1 MB", "z".repeat(ONE_MEGABYTE + 10), "text/plain"),
    raw("truncated JSON", '{"email": "a@b.test", "pass', "application/json"),
    raw("JavaScript instead of JSON", "{email: 'a@b.test'}", "application/json"),
    raw("trailing garbage", '{"a":1}}', "application/json"),
    raw("an empty JSON body", "", "application/json"),
    raw("a NUL byte", "\u0000", "application/json"),
    raw("a __proto__ key", '{"__proto__": {"is_staff": true}}', "application/json"),
    raw(
      "a constructor.prototype key",
      '{"constructor": {"prototype": {"is_staff": true}}}',
      "application/json",
    ),
    raw("XML", "<login><email>a@b.test</email></login>", "application/xml"),
    raw("a form", "email=a%40b.test&password=x", "application/x-www-form-urlencoded"),
    raw(
      "multipart",
      "--x\r\nContent-Disposition: form-data; name=a\r\n\r\n1\r\n--x--\r\n",
      "multipart/form-data; boundary=x",
    ),
    raw("an unknown media type", JSON.stringify(valid), "application/octet-stream"),
    raw("JSON in UTF-16", Buffer.from(JSON.stringify(valid), "utf16le"), "application/json; charset=utf-16"),
    raw("a body without a content type", JSON.stringify(valid)),
  ];
}

/** Sends a raw request as the signed-in caller: its session and CSRF cookies and header. */
async function send(caller: ApiCaller, method: string, url: string, attack?: Attack): Promise<InjectResult> {
  const headers: Record<string, string> = {
    accept: "application/json",
    cookie: [...caller.cookies].map(([name, value]) => `${name}=${value}`).join("; "),
    "x-xsrf-token": caller.cookies.get("XSRF-TOKEN") ?? "",
  };
  if (attack?.contentType) headers["content-type"] = attack.contentType;
  return harness.app.inject({
    method: method as "GET",
    url,
    headers,
    ...(attack?.payload !== undefined && { payload: attack.payload }),
  });
}

async function countAccounts(): Promise<number> {
  const { rows } = await harness.database.sql.query<{ count: number }>(
    "select count(*)::int as count from users",
  );
  return rows[0]?.count ?? 0;
}

function describeAnswer(response: InjectResult): string {
  return `${response.statusCode} ${response.body.slice(0, 160)}`;
}

/** A 4xx whose JSON body carries a non-empty message. */
function expectClearRefusal(response: InjectResult, what: string) {
  expect(response.statusCode, `${what} → ${describeAnswer(response)}`).toBeGreaterThanOrEqual(400);
  expect(response.statusCode, `${what} → ${describeAnswer(response)}`).toBeLessThan(500);
  const message = (response.json() as { message?: unknown }).message;
  expect(typeof message === "string" && message.length > 0, `${what}: message`).toBe(true);
}

describe("bad input on every auth endpoint", () => {
  it("has a row for every auth endpoint of the API", async () => {
    const openapi = await harness.app.inject({ method: "GET", url: "/api/openapi.json" });
    expect(openapi.statusCode, `GET /api/openapi.json → ${openapi.body.slice(0, 200)}`).toBe(200);
    const document = openapi.json<{
      paths: Record<string, Record<string, { tags?: string[] }>>;
    }>();
    const routes = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([, operation]) => operation.tags?.includes("auth"))
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(routes.length).toBeGreaterThan(10);
    const missing = routes.filter((route) => !(route in ROWS));
    const stale = Object.keys(ROWS).filter((route) => !routes.includes(route));
    expect(missing, "add a row to ROWS in apps/server/src/modules/auth/fuzz.test.ts").toEqual([]);
    expect(stale).toEqual([]);
  });

  for (const [route, row] of Object.entries(ROWS)) {
    const [method] = route.split(" ") as [string];
    const takesBody = method === "POST";

    if (takesBody) {
      it(`${route} refuses malformed bodies with a 4xx and a message, never a 5xx`, async () => {
        const { caller } = await registerUser(harness.app);
        const accountsBefore = await countAccounts();
        for (const attack of attacksFor(row)) {
          const response = await send(caller, method, row.url, attack);
          const what = `${route} with ${attack.label}`;
          if (row.body === "schema" || attack.alwaysRejected) expectClearRefusal(response, what);
          else expect(response.statusCode, `${what} → ${describeAnswer(response)}`).toBeLessThan(500);
        }
        // Nothing half-written: no refused registration left an account behind.
        expect(await countAccounts()).toBe(accountsBefore);
      });
    }

    it(`${route} refuses malformed ids, query strings and headers without a 5xx`, async () => {
      const { caller } = await registerUser(harness.app);
      for (const url of row.badUrls ?? []) {
        const attack = takesBody
          ? { label: "valid body", payload: JSON.stringify(row.valid ?? {}), contentType: "application/json" }
          : undefined;
        expectClearRefusal(
          await send(caller, method, url, attack as Attack | undefined),
          `${route} as ${url}`,
        );
      }
      // Repeated, array-style and prototype-polluting query parameters are ignored or refused.
      const query = "?a=1&a=2&b[]=1&__proto__[x]=1&constructor[prototype][y]=1&%FF=%FF";
      const noisy = await send(caller, method, `${row.url}${query}`, {
        label: "valid body",
        ...(takesBody && { payload: JSON.stringify(row.valid ?? {}), contentType: "application/json" }),
        alwaysRejected: false,
      });
      expect(noisy.statusCode, `${route} with a noisy query → ${describeAnswer(noisy)}`).toBeLessThan(500);
      // A malformed bearer token is an anonymous caller, not an error.
      const bearer = await harness.app.inject({
        method: method as "GET",
        url: row.url,
        headers: { authorization: `Bearer ${"x".repeat(5000)}`, "content-type": "application/json" },
        ...(takesBody && { payload: JSON.stringify(row.valid ?? {}) }),
      });
      expect(bearer.statusCode, `${route} with a malformed bearer → ${describeAnswer(bearer)}`).toBeLessThan(
        500,
      );
    });
  }
});
