import { LINK_GRANT_COOKIE } from "@pressguard/domain";
import { describe, expect, it } from "vitest";
import { type Detail, reportTestApp, TEST_PREVIEW_TOKEN_KEY } from "./report-test-kit.ts";

/**
 * Issue 15: an e-mailed preview link's `?token=` leaves the page's URL. The web page exchanges it for
 * a short-lived grant (`GET /api/reports/{id}/link-grant`) that it keeps in an HttpOnly cookie; the
 * API reads that cookie where it read the token, and, being a credential the browser sends by
 * itself, it needs the CSRF pair like a session does (decision 021).
 */

const kit = reportTestApp({ PREVIEW_TOKEN_KEY: TEST_PREVIEW_TOKEN_KEY });

const withGrant = (grant: string, extra: Record<string, string> = {}) => ({
  cookie: `${LINK_GRANT_COOKIE}=${grant}`,
  ...extra,
});

describe("the link grant", () => {
  it("exchanges a link's token for an hour's grant of the same audience, which reads and comments as it", async () => {
    const { id, vendor, researcher } = await kit.awaitingFixOnProgram();
    const researcherToken = await kit.linkToken(researcher.email, "report_validated");
    const vendorToken = await kit.linkToken(vendor.contactEmail, "report_vendor_notified");

    const exchanged = await kit.anonymous().get(`/api/reports/${id}/link-grant?token=${researcherToken}`);
    expect(exchanged.statusCode, exchanged.body).toBe(200);
    expect(exchanged.headers["cache-control"]).toBe("private, no-store");
    const grant = exchanged.json<{ token: string; audience: string; expires_at: string }>();
    expect(grant.audience).toBe("researcher");
    expect(grant.token).not.toBe(researcherToken);
    const life = new Date(grant.expires_at).getTime() - Date.now();
    expect(life).toBeGreaterThan(59 * 60_000);
    expect(life).toBeLessThanOrEqual(3600_000);

    // The cookie reads the report as the link did, and comments with the CSRF pair.
    const read = await kit.harness.app.inject({
      method: "GET",
      url: `/api/reports/${id}`,
      headers: withGrant(grant.token),
    });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json<Detail>().actions).toEqual([]);
    const commented = await kit.harness.app.inject({
      method: "POST",
      url: `/api/reports/${id}/comments`,
      headers: withGrant(grant.token, {
        cookie: `${LINK_GRANT_COOKIE}=${grant.token}; XSRF-TOKEN=pair`,
        "x-xsrf-token": "pair",
      }),
      payload: { body: "Commented with the grant." },
    });
    expect(commented.statusCode, commented.body).toBe(201);

    // The vendor's grant submits the fix, as the vendor's link does.
    const vendorGrant = (
      await kit.anonymous().get(`/api/reports/${id}/link-grant?token=${vendorToken}`)
    ).json<{ token: string; audience: string }>();
    expect(vendorGrant.audience).toBe("vendor");
    const fixed = await kit.harness.app.inject({
      method: "POST",
      url: `/api/vendor/reports/${id}/fix`,
      headers: {
        cookie: `${LINK_GRANT_COOKIE}=${vendorGrant.token}; XSRF-TOKEN=pair`,
        "x-xsrf-token": "pair",
      },
      payload: { fixed_version: "2.0.1" },
    });
    expect(fixed.statusCode, fixed.body).toBe(200);
  });

  it("refuses a forged token and another report's (404), and asks for a token (422)", async () => {
    const { id, researcher } = await kit.awaitingFixOnProgram();
    const researcherToken = await kit.linkToken(researcher.email, "report_validated");
    const other = await kit.validated(researcher.caller);
    for (const url of [
      `/api/reports/${id}/link-grant?token=forged.token`,
      `/api/reports/${other}/link-grant?token=${researcherToken}`,
    ])
      expect((await kit.anonymous().get(url)).statusCode, url).toBe(404);
    expect((await kit.anonymous().get(`/api/reports/${id}/link-grant`)).statusCode).toBe(422);
  });

  it("needs the CSRF pair for a call that carries the grant cookie, as a session would (419)", async () => {
    const { id, researcher } = await kit.awaitingFixOnProgram();
    const researcherToken = await kit.linkToken(researcher.email, "report_validated");
    const grant = (await kit.anonymous().get(`/api/reports/${id}/link-grant?token=${researcherToken}`)).json<{
      token: string;
    }>().token;
    const forged = await kit.harness.app.inject({
      method: "POST",
      url: `/api/reports/${id}/comments`,
      headers: withGrant(grant),
      payload: { body: "Sent by another site's form." },
    });
    expect(forged.statusCode, forged.body).toBe(419);
  });
});
