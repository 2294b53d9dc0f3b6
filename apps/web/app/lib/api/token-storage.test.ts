import { TOKEN_STORAGE_KEY } from "@pressguard/domain";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readStoredToken, writeStoredToken } from "./token-storage.ts";

afterEach(() => {
  vi.unstubAllGlobals();
});

function memoryStorage() {
  const values = new Map<string, string>();
  return {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
    removeItem: (key: string) => void values.delete(key),
  };
}

describe("token storage (token mode)", () => {
  it("keeps the token in localStorage and forgets it", () => {
    const storage = memoryStorage();
    vi.stubGlobal("localStorage", storage);
    writeStoredToken("localStorage", "t-1");
    expect(readStoredToken("localStorage")).toBe("t-1");
    writeStoredToken("localStorage", null);
    expect(readStoredToken("localStorage")).toBeNull();
  });

  it("keeps the token in a cookie the request wrapper reads back, and expires it", () => {
    const document = { cookie: "" };
    vi.stubGlobal("document", document);
    vi.stubGlobal("location", { protocol: "https:" });
    writeStoredToken("cookie", "a b/c");
    expect(document.cookie).toContain(`${TOKEN_STORAGE_KEY}=a%20b%2Fc; Path=/; SameSite=Lax`);
    expect(document.cookie).toContain("; Secure");
    expect(readStoredToken("cookie", { cookieString: document.cookie.split(";")[0] })).toBe("a b/c");
    writeStoredToken("cookie", null);
    expect(document.cookie).toContain("Max-Age=0");
  });
});
