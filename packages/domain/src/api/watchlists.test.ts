import { describe, expect, it } from "vitest";
import { versionToUpdateTo, WatchlistCreation } from "./watchlists.ts";

describe("the version a watched site should update to (issue 20)", () => {
  it("is the highest fix of the vulnerabilities affecting it, compared as versions", () => {
    expect(versionToUpdateTo([{ fixed_in: "5.9.5" }, { fixed_in: "5.10.1" }, { fixed_in: "5.9.12" }])).toBe(
      "5.10.1",
    );
  });

  it("leaves out those without a fix, and is null when none has one", () => {
    expect(versionToUpdateTo([{ fixed_in: "2.0" }, { fixed_in: null }])).toBe("2.0");
    expect(versionToUpdateTo([{ fixed_in: null }])).toBeNull();
    expect(versionToUpdateTo([])).toBeNull();
  });
});

describe("a watchlist's creation", () => {
  it("takes the batch check's items and refuses a version that is not one", () => {
    expect(
      WatchlistCreation.safeParse({
        name: " shop.example ",
        entries: [{ kind: "plugin", slug: "contact-form-7", version: "5.3.1" }],
      }).data,
    ).toEqual({
      name: "shop.example",
      entries: [{ kind: "plugin", slug: "contact-form-7", version: "5.3.1" }],
    });
    expect(
      WatchlistCreation.safeParse({ name: "x", entries: [{ kind: "plugin", slug: "a", version: "newest" }] })
        .success,
    ).toBe(false);
    expect(WatchlistCreation.safeParse({ name: "  " }).error?.issues[0]?.message).toBe(
      "Give the watchlist a name, such as the site's address.",
    );
  });
});
