import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importPlugins, importVulnerabilities } from "../../db/import.ts";
import { SMASH_BALLOON_XSS, WEB_DIRECTORY_PLUGIN } from "../../db/import-fixtures.ts";
import { type ApiCaller, registerUser, uniqueEmail } from "../../test/api-client.ts";
import { createTestApp } from "../../test/app.ts";
import { createStaffCaller } from "../../test/staff.ts";
import { CSV_MAX_BYTES } from "./csv.ts";
import { MESSAGES } from "./rules.ts";

type Harness = Awaited<ReturnType<typeof createTestApp>>;
type Listed = {
  data: Record<string, unknown>[];
  pagination: { total: number; next_page_url: string | null };
};
type Me = { vendor: { id: number; active_count: number } };
let harness: Harness;

const program = (overrides: Record<string, unknown> = {}) => ({
  kind: "plugin",
  version: "1.0.0",
  name: "Acme Forms",
  product_url: "https://acme.example/forms",
  description: "Forms for WordPress.",
  dependencies: "",
  vendor_contact_email: "security@acme.example",
  slug: `acme-forms-${Math.random().toString(36).slice(2, 8)}`,
  vendor_website_url: "https://acme.example",
  plan: "both",
  ...overrides,
});

async function verify(email: string) {
  await harness.database.sql.query("update users set email_verified_at = now() where email = $1", [email]);
}

async function vendor(options: { email?: string; verified?: boolean } = {}) {
  const registered = await registerUser(harness.app, {
    role: "vendor",
    ...(options.email && { email: options.email }),
  });
  if (options.verified !== false) await verify(registered.email);
  return registered;
}

async function create(caller: ApiCaller, overrides: Record<string, unknown> = {}) {
  const response = await caller.post("/api/products", program(overrides));
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: number; slug: string; is_active: boolean }>();
}

const productIdBySlug = async (slug: string) =>
  (await harness.database.sql.query<{ id: number }>("select id from products where slug = $1", [slug]))
    .rows[0]?.id ?? 0;

beforeAll(async () => {
  harness = await createTestApp();
  await importPlugins(harness.database, [JSON.stringify(WEB_DIRECTORY_PLUGIN)]);
  await importVulnerabilities(harness.database, [JSON.stringify(SMASH_BALLOON_XSS)]);
});
afterAll(() => harness.close());

describe("creating and updating programs (spec §5)", () => {
  it("creates a pending program with the Program fields and an empty contact e-mail as null", async () => {
    const { caller } = await vendor();
    const response = await caller.post(
      "/api/products",
      program({ vendor_contact_email: "", plan: "premium" }),
    );
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      platform: "wordpress",
      kind: "plugin",
      name: "Acme Forms",
      vendor_contact_email: null,
      dependencies: null,
      plan: "premium",
      is_active: false,
      is_lobby_product: false,
      activated_at: null,
      fix_deadline_days: 30,
      open_reports: 0,
    });
  });

  it("answers 422 with each required field's message", async () => {
    const { caller } = await vendor();
    const response = await caller.post("/api/products", { kind: "plugin" });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({
      name: ["Software name is required."],
      product_url: ["Software URL is required."],
      slug: ["Slug is required."],
      vendor_website_url: ["Website URL is required."],
    });
  });

  it("applies the URL, e-mail and slug rules with the specification's words", async () => {
    const { caller } = await vendor();
    const response = await caller.post(
      "/api/products",
      program({
        product_url: "acme.example",
        vendor_website_url: "ftp://acme.example",
        vendor_contact_email: "not-an-email",
        slug: "Acme--Forms",
      }),
    );
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({
      product_url: ["The URL must be a valid URL including the http(s):// protocol."],
      vendor_website_url: ["The URL must be a valid URL including the http(s):// protocol."],
      vendor_contact_email: ["Must be a valid email address."],
      slug: [
        "Slug must be lowercase letters and digits in groups joined by single hyphens (for example my-plugin).",
      ],
    });
  });

  it("never duplicates a slug: its own, a lobby product's or another vendor's", async () => {
    const first = await vendor();
    const second = await vendor();
    const mine = await create(first.caller);
    const again = await first.caller.post("/api/products", program({ slug: mine.slug }));
    expect(again.json().errors).toEqual({ slug: [MESSAGES.slugOwn] });
    const taken = await second.caller.post("/api/products", program({ slug: mine.slug }));
    expect(taken.json().errors).toEqual({ slug: [MESSAGES.slugOther] });
    const lobby = await first.caller.post("/api/products", program({ slug: "web-directory-free" }));
    expect(lobby.json().errors).toEqual({ slug: [MESSAGES.slugLobby] });
    // The same slug as a theme is another product.
    expect(
      (await first.caller.post("/api/products", program({ slug: mine.slug, kind: "theme" }))).statusCode,
    ).toBe(201);
  });

  it("updates a program, and keeps an active program's slug and kind", async () => {
    const { caller } = await vendor();
    const created = await create(caller);
    const renamed = await caller.post(
      `/api/products/${created.id}`,
      program({ slug: created.slug, name: "Renamed" }),
    );
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().name).toBe("Renamed");
    const edit = await caller.get(`/api/products/${created.id}/edit`);
    expect(edit.json()).toEqual({
      kind: "plugin",
      version: "1.0.0",
      name: "Renamed",
      product_url: "https://acme.example/forms",
      description: "Forms for WordPress.",
      dependencies: null,
      vendor_contact_email: "security@acme.example",
      slug: created.slug,
      vendor_website_url: "https://acme.example",
      plan: "both",
    });
    await caller.post(`/api/products/${created.id}/activate-product`, { is_lobby_product: false });
    const moved = await caller.post(
      `/api/products/${created.id}`,
      program({ slug: `${created.slug}-2`, kind: "theme" }),
    );
    expect(moved.statusCode).toBe(422);
    expect(moved.json().errors).toEqual({ slug: [MESSAGES.activeSlug], kind: [MESSAGES.activeKind] });
  });
});

describe("program lists and counters", () => {
  let caller: ApiCaller;
  const ids: number[] = [];

  beforeAll(async () => {
    ({ caller } = await vendor());
    for (let index = 0; index < 23; index += 1)
      ids.push((await create(caller, { name: `Program ${index}` })).id);
    for (const id of ids.slice(0, 3))
      await caller.post(`/api/products/${id}/activate-product`, { is_lobby_product: false });
  });

  it("filters by the fixed strings and paginates with next_page_url", async () => {
    const pending = await caller.get("/api/products?filter=vdp-pending");
    expect(pending.statusCode).toBe(200);
    const body = pending.json<{ data: unknown[]; pagination: Record<string, unknown> }>();
    expect(body.data).toHaveLength(20);
    expect(body.pagination).toMatchObject({ current_page: 1, total: 20, last_page: 1, next_page_url: null });
    const active = await caller.get("/api/products?filter=all-active&per_page=2");
    expect(active.json().pagination).toMatchObject({
      current_page: 1,
      total: 3,
      next_page_url: "/api/products?filter=all-active&per_page=2&page=2",
    });
    const last = await caller.get("/api/products?filter=all-active&per_page=2&page=2");
    expect(last.json<{ data: unknown[] }>().data).toHaveLength(1);
    expect(last.json<Listed>().pagination.next_page_url).toBeNull();
    const beyond = await caller.get("/api/products?filter=all-active&page=9");
    expect(beyond.json()).toMatchObject({ data: [], pagination: { current_page: 9, next_page_url: null } });
    // Without a filter the list is the active one.
    expect((await caller.get("/api/products")).json<Listed>().pagination.total).toBe(3);
  });

  it("refuses an unknown filter and a bad page with 422", async () => {
    for (const query of ["filter=active", "filter=", "filter=ALL-ACTIVE", "page=0", "page=abc", "page=-1"]) {
      const response = await caller.get(`/api/products?${query}`);
      expect(response.statusCode, query).toBe(422);
    }
  });

  it("computes the counters from report rows", async () => {
    const [first, second, third] = ids as [number, number, number];
    const insert = (productId: number, status: string, fixed: string | null, deadline: string | null) =>
      harness.database.sql.query(
        `insert into reports (product_id, title, status, fixed_at, fix_deadline_at, vendor_notified_at)
         values ($1, 'A report', $2, $3, $4, now() - interval '40 days')`,
        [productId, status, fixed, deadline],
      );
    await insert(first, "awaiting_fix", null, "2030-01-01");
    await insert(first, "fixed", "2026-01-10", "2026-01-20");
    await insert(second, "published", "2026-02-10", "2026-02-20");
    await insert(second, "fixed", "2026-03-30", "2026-03-20");
    await insert(third, "submitted", null, null);
    await insert(third, "fix_pending", null, "2030-01-01");
    expect((await caller.get("/api/products/details")).json()).toEqual({
      active: 3,
      pending: 20,
      open: 2,
      reports: 5,
      fixed: 3,
      fixedOnTime: 2,
    });
    const open = await caller.get("/api/products?filter=open-reports");
    expect(open.json<{ data: { id: number; open_reports: number }[] }>().data.map((row) => row.id)).toEqual([
      first,
      third,
    ]);
    expect((await caller.get(`/api/products/${first}`)).json().counters).toEqual({
      reports: 2,
      open: 1,
      fixed: 1,
      fixedOnTime: 1,
    });
  });

  it("answers 404 for another vendor's program and for a non-numeric id", async () => {
    const other = await vendor();
    const [id] = ids as [number];
    for (const url of [`/api/products/${id}`, `/api/products/${id}/edit`]) {
      const response = await other.caller.get(url);
      expect(response.statusCode).toBe(404);
      expect(response.body).not.toContain("Program 0");
    }
    expect((await other.caller.post(`/api/products/${id}`, program())).statusCode).toBe(404);
    expect(
      (await other.caller.post(`/api/products/${id}/activate-product`, { is_lobby_product: false }))
        .statusCode,
    ).toBe(404);
    for (const bad of ["abc", "1e3", "12abc", "0", "-1", "99999999999"]) {
      expect((await caller.get(`/api/products/${bad}`)).statusCode, bad).toBe(404);
      expect((await caller.get(`/api/products/${bad}/edit`)).statusCode, bad).toBe(404);
    }
  });
});

describe("activation and lobby claims", () => {
  it("needs a verified e-mail, then activates and counts in the directory and the footer", async () => {
    const unverified = await vendor({ verified: false });
    const created = await create(unverified.caller);
    const refused = await unverified.caller.post(`/api/products/${created.id}/activate-product`, {
      is_lobby_product: false,
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(MESSAGES.verifyFirst);

    await verify(unverified.email);
    const footer = async () =>
      (await harness.app.inject({ url: "/api/public/footer/metrics" })).json<{
        active_vdp_directory_count: number;
      }>().active_vdp_directory_count;
    const before = await footer();
    const activated = await unverified.caller.post(`/api/products/${created.id}/activate-product`, {
      is_lobby_product: false,
    });
    expect(activated.json()).toEqual({ status: "success", message: MESSAGES.activated });
    expect(await footer()).toBe(before + 1);
    expect((await unverified.caller.get("/api/user")).json<Me>().vendor.active_count).toBe(1);
    const policy = await harness.app.inject({ url: `/api/v1/products/wordpress/plugin/${created.slug}` });
    expect(policy.json().program).toMatchObject({ fix_deadline_days: 30, plan: "both" });
    const again = await unverified.caller.post(`/api/products/${created.id}/activate-product`, {
      is_lobby_product: false,
    });
    expect(again.json()).toEqual({ status: "success", message: MESSAGES.alreadyActive });
  });

  it("claims a lobby product at once when a verified e-mail's domain matches its URL", async () => {
    const matching = await vendor({
      email: uniqueEmail("owner").replace("@example.test", "@salephpscripts.com"),
    });
    const lobby = await matching.caller.get("/api/products/lobby");
    const rows = lobby.json<{ data: { slug: string; domain_match: boolean; id: number }[] }>().data;
    expect(rows.map((row) => [row.slug, row.domain_match])).toEqual([["web-directory-free", true]]);
    const row = rows[0] ?? { id: 0 };

    const other = await vendor();
    expect((await other.caller.get("/api/products/lobby")).json().data).toEqual([]);
    const searched = await other.caller.get("/api/products/lobby?q=web-directory");
    expect(searched.json<Listed>().data[0]).toMatchObject({
      slug: "web-directory-free",
      domain_match: false,
    });

    const claimed = await matching.caller.post(`/api/products/${row.id}/activate-product`, {
      is_lobby_product: true,
    });
    expect(claimed.json()).toEqual({ status: "success", message: MESSAGES.claimed });
    const mine = await matching.caller.get(`/api/products/${row.id}`);
    expect(mine.json()).toMatchObject({ is_active: true, is_lobby_product: true });

    const late = await other.caller.post(`/api/products/${row.id}/activate-product`, {
      is_lobby_product: true,
    });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(MESSAGES.claimedByOther);
    // Without is_lobby_product, another vendor's product simply does not exist.
    expect(
      (await other.caller.post(`/api/products/${row.id}/activate-product`, { is_lobby_product: false }))
        .statusCode,
    ).toBe(404);
  });

  it("sends a claim whose domain does not match to staff, who approve or reject it", async () => {
    const productId = await productIdBySlug("custom-facebook-feed");
    const first = await vendor();
    const second = await vendor();
    const third = await vendor();
    for (const claimant of [first, second, third]) {
      const answer = await claimant.caller.post(`/api/products/${productId}/activate-product`, {
        is_lobby_product: true,
      });
      expect(answer.json()).toEqual({ status: "pending", message: MESSAGES.claimPending });
    }
    const lobby = await first.caller.get("/api/products/lobby?q=custom-facebook-feed");
    expect(lobby.json<Listed>().data[0]).toMatchObject({ claim_status: "pending" });

    const staff = await createStaffCaller(harness.app, harness.database);
    const queue = await staff.get("/api/staff/product-claims");
    const claims = queue.json<{ data: { id: number; vendor: { id: number } }[] }>().data;
    expect(claims).toHaveLength(3);
    const [firstClaim, secondClaim] = [claims[0] ?? { id: 0 }, claims[1] ?? { id: 0 }];

    const rejected = await staff.post(`/api/staff/product-claims/${firstClaim.id}/reject`, {
      reason: "No proof.",
    });
    expect(rejected.statusCode).toBe(200);
    expect((await staff.post(`/api/staff/product-claims/${firstClaim.id}/approve`)).statusCode).toBe(409);
    expect(
      (await staff.post(`/api/staff/product-claims/${secondClaim.id}/reject`, { reason: " " })).statusCode,
    ).toBe(422);
    expect((await staff.post(`/api/staff/product-claims/${secondClaim.id}/approve`)).statusCode).toBe(200);

    expect((await second.caller.get(`/api/products/${productId}`)).json()).toMatchObject({ is_active: true });
    const decided = await staff.get("/api/staff/product-claims?status=rejected");
    expect(
      decided
        .json<{ data: { reason: string }[] }>()
        .data.map((claim) => claim.reason)
        .sort(),
    ).toEqual(["Another vendor's claim was accepted.", "No proof."]);
    expect((await first.caller.get("/api/products/lobby?q=custom-facebook-feed")).json().data).toEqual([]);
    // Both people who asked hear the decision by e-mail.
    const mail = await harness.database.sql.query<{ to_address: string; subject: string }>(
      "select to_address, subject from mail_outbox where template = 'product_claim_decided' order by id",
    );
    expect(mail.rows).toEqual([
      { to_address: first.email, subject: "Your claim on Smash Balloon Social Post Feed was not approved" },
      { to_address: second.email, subject: "Your claim on Smash Balloon Social Post Feed was approved" },
    ]);
  });
});

describe("CSV import", () => {
  const boundary = "----pressguard-test";
  const upload = (
    caller: ApiCaller,
    content: string | Buffer,
    filename = "programs.csv",
    type = "text/csv",
  ) =>
    caller.post(
      "/api/products/import-csv",
      Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
        ),
        Buffer.isBuffer(content) ? content : Buffer.from(content),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
      { headers: { "content-type": `multipart/form-data; boundary=${boundary}` } },
    );
  const header =
    "kind,version,name,product_url,description,dependencies,vendor_contact_email,slug,vendor_website_url,plan";
  const row = (slug: string, overrides: Partial<Record<string, string>> = {}) => {
    const values = {
      kind: "plugin",
      version: "1.0",
      name: `Name ${slug}`,
      product_url: "https://acme.example/p",
      description: "",
      dependencies: "",
      vendor_contact_email: "",
      slug,
      vendor_website_url: "https://acme.example",
      plan: "",
      ...overrides,
    };
    return Object.values(values)
      .map((value) => (/[",\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value))
      .join(",");
  };

  it("serves a template whose header is the Program fields", async () => {
    const { caller } = await vendor();
    const response = await caller.get("/api/products/csv-template");
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("text/csv");
    expect(response.headers["content-disposition"]).toContain("attachment");
    expect(response.body.split("\r\n")[0]).toBe(header);
  });

  it("creates the valid rows and reports each bad, duplicate or taken row by line", async () => {
    const { caller } = await vendor();
    const existing = await create(caller);
    const suffix = Math.random().toString(36).slice(2, 8);
    await harness.database.sql.query(
      "insert into products (platform_id, kind, slug, name) select id, 'plugin', $1, 'Lobby' from platforms",
      [`lobby-${suffix}`],
    );
    const csv = [
      header,
      row(`good-${suffix}`),
      row(`bad-${suffix}`, { product_url: "acme.example", name: "" }),
      row(`good-${suffix}`),
      row(existing.slug),
      row(`lobby-${suffix}`),
      row(`formula-${suffix}`, { name: '=HYPERLINK("http://evil.example","x")', description: "multi\nline" }),
      row(`theme-${suffix}`, { kind: "theme", plan: "premium" }),
    ].join("\n");
    const response = await upload(caller, csv);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      rows: 7,
      created: 3,
      errors: [
        {
          line: 3,
          messages: [
            "name: Software name is required.",
            "product_url: The URL must be a valid URL including the http(s):// protocol.",
          ],
        },
        { line: 4, messages: [`slug: The slug good-${suffix} is already on line 2.`] },
        { line: 5, messages: [`slug: ${MESSAGES.slugOwn}`] },
        { line: 6, messages: [`slug: ${MESSAGES.slugLobby}`] },
      ],
    });
    const stored = await harness.database.sql.query<{ name: string; description: string; plan: string }>(
      "select name, description, plan from products where slug in ($1, $2) order by slug",
      [`formula-${suffix}`, `theme-${suffix}`],
    );
    // Cells are stored as the text they are; only CSV the product writes is neutralised.
    expect(stored.rows).toEqual([
      { name: '=HYPERLINK("http://evil.example","x")', description: "multi\nline", plan: "free" },
      { name: `Name theme-${suffix}`, description: null, plan: "premium" },
    ]);
    // A second import of the same file creates nothing new.
    const again = await upload(caller, csv);
    expect(again.json().created).toBe(0);
  });

  it("refuses a file that is not CSV, too large, too long or without the header", async () => {
    const { caller } = await vendor();
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    const notCsv = await upload(caller, png, "logo.png", "image/png");
    expect(notCsv.statusCode).toBe(415);
    expect(notCsv.json().message).toBe(
      "The file must be a UTF-8 encoded CSV file (.csv); save spreadsheets as CSV first.",
    );
    expect((await upload(caller, `${header}\n`, "programs.xlsx")).statusCode).toBe(415);

    const huge = await upload(caller, `${header}\n${"x".repeat(1_100_000)}`);
    expect(huge.statusCode).toBe(413);
    expect(huge.json().message).toBe("The file is larger than 1 MB.");

    const long = [header, ...Array.from({ length: 1001 }, (_, index) => row(`row-${index}`))].join("\n");
    const tooLong = await upload(caller, long);
    expect(tooLong.statusCode).toBe(422);
    expect(tooLong.json().message).toBe(
      "The file has 1,001 rows; at most 1,000 can be imported at once. Split it into smaller files.",
    );

    const noHeader = await upload(caller, row("a-b"));
    expect(noHeader.statusCode).toBe(422);
    expect(noHeader.json().message).toMatch(/^The first line must be the template's header/);
    expect((await upload(caller, '"unterminated\n')).statusCode).toBe(422);
    const json = await caller.post("/api/products/import-csv", { file: "x" });
    expect(json.statusCode).toBe(415);
  });

  it("counts the bytes of the file as they arrive, whatever the lines and network chunks (issue 15)", async () => {
    const { caller } = await vendor();
    // 200 rows that fit, then one long last line; the upload arrives in two network chunks, the
    // first ending exactly at 1 MB of file: the excess was cut off unseen and the 200 rows created.
    const csv = [
      header,
      ...Array.from({ length: 200 }, (_, index) => row(`fits-${index}`)),
      "x".repeat(3_000_000),
    ].join("\n");
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="programs.csv"\r\nContent-Type: text/csv\r\n\r\n`,
      ),
      Buffer.from(csv),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const oneMegabyteOfFile = body.indexOf(header) + CSV_MAX_BYTES;
    const answer = await caller.post(
      "/api/products/import-csv",
      Readable.from([body.subarray(0, oneMegabyteOfFile), body.subarray(oneMegabyteOfFile)]),
      { headers: { "content-type": `multipart/form-data; boundary=${boundary}` } },
    );
    expect(answer.statusCode, answer.body).toBe(413);
    expect(answer.json().message).toBe("The file is larger than 1 MB.");
    const created = await harness.database.sql.query("select 1 from products where slug like 'fits-%'");
    expect(created.rows).toEqual([]);

    // Exactly 1 MB is still accepted.
    const exact = `${header}\n${row("exactly-one-mb")}\n`;
    const padded = `${exact}${"z".repeat(CSV_MAX_BYTES - Buffer.byteLength(exact))}`;
    expect((await upload(caller, padded)).json()).toMatchObject({ rows: 2, created: 1 });
  });
});

describe("the vendor account", () => {
  it("reads, validates with the §5 messages, and completes the account on first save", async () => {
    const { caller } = await vendor();
    expect((await caller.get("/api/vendor/account")).json()).toMatchObject({
      completed: false,
      role: "owner",
    });
    const empty = await caller.put("/api/vendor/account", {});
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors).toEqual({
      vendor_name: ["Vendor name is required."],
      contact_email: ["Vendor email is required."],
      contact_person: ["Person of contact is required."],
      timezone: ["Timezone is required."],
    });
    const badUrl = await caller.put("/api/vendor/account", {
      vendor_name: "Acme",
      url: "acme.example",
      contact_email: "nope",
      contact_person: "Ann",
      timezone: "Mars/Olympus",
    });
    expect(badUrl.json().errors).toEqual({
      url: ["The URL must be a valid URL including the http(s):// protocol."],
      contact_email: ["Must be a valid email address."],
      timezone: ["Timezone must be a valid time zone."],
    });
    const saved = await caller.put("/api/vendor/account", {
      vendor_name: "Acme",
      url: "",
      contact_email: "security@acme.example",
      contact_person: "Ann",
      timezone: "Europe/Tallinn",
      country: "EE",
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ vendor_name: "Acme", url: null, country: "EE", completed: true });
    expect((await caller.get("/api/user")).json().vendor).toMatchObject({
      name: "Acme",
      account_completed: true,
    });
  });

  it("answers 422, never 500, for text the database cannot store", async () => {
    const { caller } = await vendor();
    const response = await caller.put("/api/vendor/account", {
      vendor_name: "Acme\u0000",
      contact_email: "security@acme.example",
      contact_person: "Ann\u0000",
      timezone: "UTC",
    });
    expect(response.statusCode).toBe(422);
    expect((await caller.post("/api/products", program({ name: "Nul\u0000name" }))).statusCode).toBe(422);
  });

  it("lets members read but not change the account", async () => {
    const owner = await vendor();
    const member = await registerUser(harness.app, { role: "researcher" });
    const vendorId = (await owner.caller.get("/api/user")).json<Me>().vendor.id;
    await harness.database.sql.query(
      "insert into vendor_members (vendor_id, user_id, role) values ($1, $2, 'member')",
      [vendorId, member.user.id],
    );
    expect((await member.caller.get("/api/vendor/account")).json()).toMatchObject({ role: "member" });
    const refused = await member.caller.put("/api/vendor/account", {
      vendor_name: "Taken over",
      contact_email: "x@example.test",
      contact_person: "X",
      timezone: "UTC",
    });
    expect(refused.statusCode).toBe(403);
  });
});
