import type { AppLoadContext } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { developmentPublicConfig } from "./request-context.server.ts";
import { getOptionalUser } from "./session.server.ts";

const context: AppLoadContext = {
  publicConfig: developmentPublicConfig("http://site.test"),
  apiOrigin: "http://api.test",
};

function page(cookie?: string) {
  return new Request("http://site.test/", { headers: cookie ? { cookie } : {} });
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("getOptionalUser", () => {
  it("treats a request without cookies as anonymous without asking the API", async () => {
    const fetch = vi.fn();
    vi.stubGlobal("fetch", fetch);
    await expect(getOptionalUser(page(), context)).resolves.toBeNull();
    expect(fetch).not.toHaveBeenCalled();
  });

  it("asks the user endpoint with the visitor's cookies", async () => {
    const fetch = vi.fn(async () => Response.json({ roles: ["vendor"], vendor: { active_count: 2 } }));
    vi.stubGlobal("fetch", fetch);
    await expect(getOptionalUser(page("session=s1"), context)).resolves.toMatchObject({ roles: ["vendor"] });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("http://api.test/api/user");
    expect(new Headers(init.headers).get("cookie")).toBe("session=s1");
  });

  it("accepts a user wrapped in data", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Response.json({ data: { roles: ["researcher"], researcher: { uuid: "u" } } })),
    );
    await expect(getOptionalUser(page("session=s1"), context)).resolves.toMatchObject({
      researcher: { uuid: "u" },
    });
  });

  it.each([401, 419])("treats %i as not authenticated, quietly", async (status) => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Response.json({ message: "Unauthenticated." }, { status })),
    );
    await expect(getOptionalUser(page("session=old"), context)).resolves.toBeNull();
    if (status === 401) expect(warn).not.toHaveBeenCalled();
  });

  it("logs any other failure and treats the visitor as anonymous", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    vi.spyOn(console, "error").mockImplementation(() => {});
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Response.json({ message: "boom" }, { status: 500 })),
    );
    await expect(getOptionalUser(page("session=s1"), context)).resolves.toBeNull();
    expect(warn).toHaveBeenCalledWith("The signed-in user could not be loaded", "boom");
  });
});
