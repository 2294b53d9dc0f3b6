import { TOKEN_STORAGE_KEY } from "@pressguard/domain";
import { describe, expect, it } from "vitest";
import { parseCookieHeader, parseSetCookie, serializeCookies } from "./cookies.ts";
import { readStoredToken } from "./token-storage.ts";

describe("cookies", () => {
  it("parses a Cookie header, decoding values and keeping the first of duplicates", () => {
    const cookies = parseCookieHeader(' a=1; XSRF-TOKEN=ab%3D%3D; b="q"; a=2; broken; =x');
    expect([...cookies]).toEqual([
      ["a", "1"],
      ["XSRF-TOKEN", "ab=="],
      ["b", "q"],
    ]);
    expect(parseCookieHeader(null).size).toBe(0);
  });

  it("reads the name and value of a Set-Cookie line", () => {
    expect(parseSetCookie("XSRF-TOKEN=a%20b; Path=/; SameSite=Lax")).toEqual({
      name: "XSRF-TOKEN",
      value: "a b",
    });
    expect(parseSetCookie("nonsense")).toBeNull();
  });

  it("serialises cookies back, encoding values", () => {
    expect(
      serializeCookies(
        new Map([
          ["a", "x y"],
          ["b", "1"],
        ]),
      ),
    ).toBe("a=x%20y; b=1");
  });
});

describe("readStoredToken", () => {
  it("reads the token cookie", () => {
    expect(readStoredToken("cookie", { cookieString: `${TOKEN_STORAGE_KEY}=t1; other=2` })).toBe("t1");
    expect(readStoredToken("cookie", { cookieString: "other=2" })).toBeNull();
  });

  it("reads localStorage", () => {
    const store = { getItem: (key: string) => (key === TOKEN_STORAGE_KEY ? "t2" : null) };
    expect(readStoredToken("localStorage", { localStorage: store })).toBe("t2");
    expect(readStoredToken("localStorage", { localStorage: { getItem: () => "" } })).toBeNull();
  });
});
