import {
  isPageReadFailure,
  LINK_GRANT_COOKIE,
  type PageReadQuery,
  type PageReadRoute,
  PIN_PREVIEW_COOKIE,
  pageReadPath,
  pageReadSearch,
  type VisitorCredentials,
} from "@pressguard/domain";
import { describe, expect, it } from "vitest";
import type { ApiCaller } from "../../test/api-client.ts";
import { reportTestApp, TEST_PREVIEW_TOKEN_KEY } from "./report-test-kit.ts";

/**
 * The signed-in pages' reads in-process (issue 36, decision 038): a vendor's program, a researcher's
 * reports and report, an e-mailed link's grant, a PIN preview, an invoice, an invitation, the vendor
 * embed, the development mailbox. Each answers what `GET /api/…` answers the same credentials — the
 * session cookie, the link grant or the PIN preview cookie — and fails with its status and message.
 */
const kit = reportTestApp({ PREVIEW_TOKEN_KEY: TEST_PREVIEW_TOKEN_KEY, DEV_MAILBOX: "on" });

const cookieOf = (caller: ApiCaller) =>
  [...caller.cookies].map(([name, value]) => `${name}=${value}`).join("; ");

async function overHttp(
  route: PageReadRoute,
  params: Record<string, string>,
  query: PageReadQuery | undefined,
  visitor: VisitorCredentials,
) {
  const response = await kit.harness.app.inject({
    method: "GET",
    url: `/api${pageReadPath(route, params)}${pageReadSearch(query)}`,
    headers: { ...(visitor.cookie && { cookie: visitor.cookie }) },
  });
  return { status: response.statusCode, body: response.json() as unknown };
}

async function inProcess(
  route: PageReadRoute,
  params: Record<string, string>,
  query: PageReadQuery | undefined,
  visitor: VisitorCredentials,
) {
  try {
    return { status: 200, body: (await kit.harness.app.pageRead(route, params, query, visitor)) as unknown };
  } catch (error) {
    if (!isPageReadFailure(error)) throw error;
    const { status, message, errors } = error;
    return { status, body: { status: "error", message, ...(errors && { errors }) } };
  }
}

type Read = [PageReadRoute, Record<string, string>, PageReadQuery | undefined, VisitorCredentials, number];

async function expectSameAnswers(reads: Read[]) {
  for (const [route, params, query, visitor, status] of reads) {
    const label = `${route} ${JSON.stringify(params)} ${JSON.stringify(query ?? {})}`;
    const http = await overHttp(route, params, query, visitor);
    expect(http.status, label).toBe(status);
    expect(await inProcess(route, params, query, visitor), label).toStrictEqual(http);
  }
}

describe("signed-in pages' reads in-process", () => {
  it("answer the vendor, the researcher and an e-mailed link's holder as the API does", async () => {
    const { id, vendor, researcher } = await kit.validatedOnProgram();
    await kit.transition(id, { action: "notify_vendor" });
    const stranger = await kit.researcherAccount();
    const token = await kit.linkToken(researcher.email, "report_validated");
    const grant = (await kit.anonymous().get(`/api/reports/${id}/link-grant?token=${token}`)).json<{
      token: string;
    }>().token;
    const asVendor = { cookie: cookieOf(vendor.caller) };
    const asResearcher = { cookie: cookieOf(researcher.caller) };

    await expectSameAnswers([
      ["/products/:id", { id: String(vendor.productId) }, undefined, asVendor, 200],
      ["/products/:id", { id: String(vendor.productId) }, undefined, asResearcher, 403],
      ["/products/:id", { id: String(vendor.productId) }, undefined, {}, 401],
      ["/researcher/reports", {}, { tab: "in-review", page: 1 }, asResearcher, 200],
      ["/researcher/reports", {}, { tab: "nonsense" }, asResearcher, 422],
      ["/reports/:id", { id }, undefined, asResearcher, 200],
      ["/reports/:id", { id }, undefined, { cookie: cookieOf(stranger.caller) }, 404],
      ["/reports/:id", { id }, undefined, {}, 401],
      // An e-mailed link: its token in the query, or the grant the page keeps in a cookie.
      ["/reports/:id", { id }, { token }, {}, 200],
      ["/reports/:id", { id }, undefined, { cookie: `${LINK_GRANT_COOKIE}=${grant}` }, 200],
      ["/reports/:id/link-grant", { id }, { token: "forged" }, {}, 404],
      ["/vendor/invoices/:number", { number: "PG-2026-000001" }, undefined, asVendor, 404],
      ["/vendor/invoices/:number", { number: "PG-2026-000001" }, undefined, asResearcher, 403],
      ["/invitations/:token", { token: "no-such-invitation" }, undefined, {}, 404],
      ["/v1/embed/vendors/:public_key", { public_key: vendor.publicKey }, undefined, {}, 200],
      ["/v1/embed/vendors/:public_key", { public_key: "no-such-key" }, undefined, {}, 404],
    ]);

    // A grant is a fresh credential each time: compare everything but the token and its expiry.
    const exchanged = await inProcess("/reports/:id/link-grant", { id }, { token }, {});
    expect(exchanged).toMatchObject({ status: 200, body: { audience: "researcher" } });
  });

  it("answer a PIN preview's holder and the development mailbox as the API does", async () => {
    const { id, pin, contact } = await kit.pinReport();
    const holder = await kit.pinContact(id, pin);
    const preview = holder.cookies.get(PIN_PREVIEW_COOKIE);
    expect(preview).toBeTruthy();
    await expectSameAnswers([
      ["/report-previews/:id", { id }, undefined, { cookie: `${PIN_PREVIEW_COOKIE}=${preview}` }, 200],
      ["/report-previews/:id", { id }, undefined, { cookie: `${PIN_PREVIEW_COOKIE}=forged` }, 401],
      ["/report-previews/:id", { id }, undefined, {}, 401],
      ["/dev/mail", {}, { to: contact }, {}, 200],
    ]);
    // The mailbox is never cached by a browser: its HTTP answer still says so.
    const http = await kit.harness.app.inject({ method: "GET", url: "/api/dev/mail" });
    expect(http.headers["cache-control"]).toBe("no-store");
  });
});
