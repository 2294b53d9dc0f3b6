import type { AppLoadContext } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { developmentPublicConfig } from "../lib/request-context.server.ts";
import { loader } from "./program-tabs.tsx";

const COUNTERS = { active: 1, pending: 2, open: 0, reports: 0, fixed: 0, fixedOnTime: 0 };

function contextWith(pageRead: (route: string) => Promise<unknown>): AppLoadContext {
  return { publicConfig: developmentPublicConfig("http://site.test"), pageRead } as unknown as AppLoadContext;
}

const run = (request: Request, context: AppLoadContext) =>
  loader({ request, context, params: {} } as unknown as Parameters<typeof loader>[0]);

describe("the program tabs' loader", () => {
  it("reads the counters for a signed-in visitor, with their credentials", async () => {
    const pageRead = vi.fn(async (route: string) =>
      route === "/user" ? { id: 1, roles: ["vendor"] } : route === "/products/details" ? COUNTERS : null,
    );
    const request = new Request("http://site.test/vdp/programs/all", {
      headers: { cookie: "pressguard_session=s" },
    });
    expect(await run(request, contextWith(pageRead))).toEqual({ details: COUNTERS });
    expect(pageRead.mock.calls.map(([route]) => route)).toEqual(["/user", "/products/details"]);
  });

  it.each([
    ["an anonymous visit (a crawler)", {}, null, "/vdp/login?redirect=%2Fvdp%2Fprograms%2Fall"],
    [
      "a signed-in account without a vendor seat",
      { cookie: "pressguard_session=s" },
      ["researcher"],
      "/watchlists",
    ],
  ])("reads no counters for %s, sent on by the tabs' guard", async (_, headers, roles, location) => {
    const pageRead = vi.fn(async (route: string) => (route === "/user" ? { id: 2, roles } : COUNTERS));
    const request = new Request("http://site.test/vdp/programs/all", { headers });
    const thrown = await run(request, contextWith(pageRead)).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).headers.get("Location")).toBe(location);
    expect(pageRead.mock.calls.map(([route]) => route)).not.toContain("/products/details");
  });
});
