import { Readable } from "node:stream";
import { CSV_IMPORT_MAX_BYTES } from "@pressguard/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiCaller } from "../../test/api-client.ts";
import { createProgramTestApp, type Harness, programHelpers } from "./program-test-kit.ts";
import { MESSAGES } from "./rules.ts";

/** The programs' CSV import (issue 6) and its template. */

let harness: Harness;
const { vendor, create } = programHelpers(() => harness);

beforeAll(async () => {
  harness = await createProgramTestApp();
});
afterAll(() => harness.close());

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
    const unterminated = await upload(caller, `${header}\n${row("a-b")}\nplugin,1.0,"Never closed,x\n`);
    expect(unterminated.statusCode).toBe(422);
    // Said for a person with a spreadsheet, not in csv-parse's words (issue 19).
    expect(unterminated.json().message).toBe(
      'The file is not valid CSV. A cell opens with a double quote that is never closed, so the file ends inside it. Put a cell that holds a comma, a quote or a line break in double quotes, and write each double quote inside it twice ("").',
    );
    const strayQuote = await upload(caller, `${header}\nplugin,1.0,Say "hi",x\n`);
    expect(strayQuote.json().message).toMatch(
      /^The file is not valid CSV\. Line 2: a double quote in the middle of a cell\./,
    );
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
    const oneMegabyteOfFile = body.indexOf(header) + CSV_IMPORT_MAX_BYTES;
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
    const padded = `${exact}${"z".repeat(CSV_IMPORT_MAX_BYTES - Buffer.byteLength(exact))}`;
    expect((await upload(caller, padded)).json()).toMatchObject({ rows: 2, created: 1 });
  });
});
