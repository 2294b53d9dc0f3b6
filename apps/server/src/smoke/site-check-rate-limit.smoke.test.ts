import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ProductionServer, startProductionServer } from "./server-process.ts";

/**
 * The "Check your site" page (/database/check) runs the batch check from the server while it renders,
 * with the renderer's internal header, which the public API's rate limit exempts. Its check must still
 * count on the visitor's own budget, or the page would be a way around the limit (issue 20). Run on
 * the production process (`npm start` after the build), with a budget of 3 and addresses told by
 * X-Forwarded-For (TRUST_PROXY=on), so that one test plays several visitors.
 */
const BUDGET = 3;
const BROWSER =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36";
const VISITOR_ADDRESS_HEADER = "x-pressguard-visitor";
const UNKNOWN = "Not in the database";
const REFUSED = /Too many checks from your address\. Try again in \d+ seconds\./;

/** The page's form, posted as a browser without JavaScript posts it. */
const FORM = new URLSearchParams({
  kind: "plugin",
  inventory: JSON.stringify([
    { name: "contact-form-7", status: "active", update: "available", version: "5.3.1" },
    { name: "a-plugin-nobody-knows", status: "active", update: "none", version: "1.0" },
  ]),
}).toString();

let server: ProductionServer;
beforeAll(async () => {
  server = await startProductionServer({
    SEED: "off",
    TRUST_PROXY: "on",
    API_RATE_LIMIT_ANONYMOUS: String(BUDGET),
    API_RATE_LIMIT_WINDOW_SECONDS: "86400",
  });
});
afterAll(async () => {
  await server?.stop();
});

/** The page's answer; a refused check is answered 429, with the page saying when to try again. */
async function checkPage(ip: string, status = 200): Promise<string> {
  const response = await fetch(`${server.origin}/database/check`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      "user-agent": BROWSER,
      "x-forwarded-for": ip,
    },
    body: FORM,
  });
  expect(response.status).toBe(status);
  return response.text();
}

const apiCall = (ip: string, headers: Record<string, string> = {}) =>
  fetch(`${server.origin}/api/v1/statistics/counts`, { headers: { "x-forwarded-for": ip, ...headers } });

describe("the Check your site page and the public API's rate limit", () => {
  it("counts the page's checks on the visitor's budget, and refuses them over it; another visitor is not affected", async () => {
    for (let check = 0; check < BUDGET; check += 1) expect(await checkPage("10.91.0.1")).toContain(UNKNOWN);
    const refused = await checkPage("10.91.0.1", 429);
    expect(refused).toMatch(REFUSED);
    expect(refused).not.toContain(UNKNOWN);
    expect(await checkPage("10.91.0.2")).toContain(UNKNOWN);
    // The visitor's own API calls share that budget: it is spent.
    expect((await apiCall("10.91.0.1")).status).toBe(429);
  });

  it("never lets a caller name another visitor to pay for it", async () => {
    // Without the renderer's secret, the visitor header moves nothing: the caller's own address pays.
    for (let request = 0; request < BUDGET; request += 1)
      expect((await apiCall("10.91.0.3", { [VISITOR_ADDRESS_HEADER]: "10.91.0.4" })).status).toBe(200);
    expect((await apiCall("10.91.0.3", { [VISITOR_ADDRESS_HEADER]: "10.91.0.4" })).status).toBe(429);
    // 10.91.0.4 spent nothing.
    expect(await checkPage("10.91.0.4")).toContain(UNKNOWN);
  });
});
