import { PublicConfig } from "@pressguard/domain";
import { UNSAFE_ErrorResponseImpl as ErrorResponseImpl } from "react-router";
import { describe, expect, it } from "vitest";
import { DEFAULT_ERROR_MESSAGE } from "./errors.ts";
import {
  buildMeta,
  canonicalUrl,
  configFromMatches,
  DATABASE_FEED,
  feedLinkOf,
  formatDocumentTitle,
  type MetaArgsLike,
  pageMeta,
  type SeoConfig,
  titleFromPath,
  withTrailingSlashRule,
} from "./seo.ts";

function config(
  site: Partial<SeoConfig["site"]> = {},
  whitelist = ["page", "q", "type", "severity"],
): SeoConfig {
  return {
    site: {
      name: "Pressguard",
      url: "https://pressguard.test",
      trailingSlash: false,
      indexable: true,
      titleSeparator: "|",
      ...site,
    },
    canonicalQueryWhitelist: whitelist,
  };
}

function titleOf(meta: ReturnType<typeof buildMeta>): unknown {
  const entry = meta.find((descriptor) => "title" in descriptor) as { title?: unknown } | undefined;
  return entry?.title;
}

function find(meta: ReturnType<typeof buildMeta>, key: string, value: string) {
  return meta.find((entry) => (entry as Record<string, unknown>)[key] === value) as
    | Record<string, string>
    | undefined;
}

/** What React Router hands to meta functions after a loader threw `data(body, { status })`. */
function thrownRouteError(status: number, body: unknown) {
  return new ErrorResponseImpl(status, "", body);
}

describe("titleFromPath", () => {
  it("title-cases the last path segment", () => {
    expect(titleFromPath("/vdp/reports/awaiting_fix")).toBe("Awaiting Fix");
    expect(titleFromPath("/database")).toBe("Database");
    expect(titleFromPath("/vdp/account/forward-reports")).toBe("Forward Reports");
    expect(titleFromPath("/researchers/abc/in-review/")).toBe("In Review");
  });

  it("gives nothing for the root, so the site name stands alone", () => {
    expect(titleFromPath("/")).toBe("");
    expect(formatDocumentTitle(titleFromPath("/"), config().site)).toBe("Pressguard");
  });

  it("decodes escaped segments and survives malformed ones", () => {
    expect(titleFromPath("/database/caf%C3%A9")).toBe("Café");
    expect(titleFromPath("/x/%E0%A4%A")).toBe("%E0%A4%A");
  });
});

describe("formatDocumentTitle", () => {
  it("joins page title, separator and site name", () => {
    expect(formatDocumentTitle("Active VDP directory", config().site)).toBe(
      "Active VDP directory | Pressguard",
    );
    expect(formatDocumentTitle("Programs", config({ titleSeparator: "·", name: "PG" }).site)).toBe(
      "Programs · PG",
    );
  });

  it("uses the site name alone for an empty title", () => {
    expect(formatDocumentTitle("  ", config().site)).toBe("Pressguard");
    expect(formatDocumentTitle(undefined, config().site)).toBe("Pressguard");
  });
});

describe("canonicalUrl", () => {
  it("keeps only whitelisted, non-empty query parameters", () => {
    expect(canonicalUrl(config(), "/database", "?q=xss&utm_source=mail&page=2&sort=&severity=")).toBe(
      "https://pressguard.test/database?q=xss&page=2",
    );
  });

  it("drops the query entirely when nothing is whitelisted", () => {
    expect(canonicalUrl(config({}, []), "/database", "?q=xss")).toBe("https://pressguard.test/database");
  });

  it("applies the trailing-slash rule", () => {
    expect(canonicalUrl(config({ trailingSlash: true }), "/database/vdp")).toBe(
      "https://pressguard.test/database/vdp/",
    );
    expect(canonicalUrl(config({ trailingSlash: false }), "/database/vdp/")).toBe(
      "https://pressguard.test/database/vdp",
    );
    expect(canonicalUrl(config({ trailingSlash: true }), "/")).toBe("https://pressguard.test/");
    expect(canonicalUrl(config({ trailingSlash: false }), "/")).toBe("https://pressguard.test/");
  });

  it("does not double the slash when the site URL ends with one", () => {
    expect(canonicalUrl(config({ url: "https://pressguard.test/" }), "/database")).toBe(
      "https://pressguard.test/database",
    );
  });

  it("normalises repeated trailing slashes", () => {
    expect(withTrailingSlashRule("/a//", false)).toBe("/a");
    expect(withTrailingSlashRule("a", true)).toBe("/a/");
  });
});

describe("buildMeta", () => {
  const location = { pathname: "/database/vdp", search: "?page=3&ref=x" };

  it("gives the title, description and canonical link of a page", () => {
    const meta = buildMeta(
      { title: "Active VDP directory", description: "Vendors." },
      { location, config: config() },
    );
    expect(titleOf(meta)).toBe("Active VDP directory | Pressguard");
    expect(find(meta, "name", "description")?.content).toBe("Vendors.");
    expect(find(meta, "rel", "canonical")).toEqual({
      tagName: "link",
      rel: "canonical",
      href: "https://pressguard.test/database/vdp?page=3",
    });
    expect(find(meta, "name", "robots")).toBeUndefined();
  });

  it("falls back to the last path segment without a title", () => {
    const meta = buildMeta(
      {},
      { location: { pathname: "/vdp/reports/awaiting_fix", search: "" }, config: config() },
    );
    expect(titleOf(meta)).toBe("Awaiting Fix | Pressguard");
  });

  it("adds noindex when the site is not indexable", () => {
    const meta = buildMeta({ title: "X" }, { location, config: config({ indexable: false }) });
    expect(find(meta, "name", "robots")?.content).toBe("noindex, nofollow");
  });

  it("titles a 404 with its status and message, without a canonical link", () => {
    const error = thrownRouteError(404, "Page not found");
    const meta = buildMeta({ title: "Program #12" }, { location, config: config(), error });
    expect(titleOf(meta)).toBe("404 | Page not found | Pressguard");
    expect(find(meta, "rel", "canonical")).toBeUndefined();
    expect(find(meta, "name", "robots")?.content).toBe("noindex");
  });

  it("titles a crash as 500 with the generic message", () => {
    const meta = buildMeta({}, { location, config: config(), error: new Error("boom") });
    expect(titleOf(meta)).toBe(`500 | ${DEFAULT_ERROR_MESSAGE} | Pressguard`);
  });

  it("announces the page's Atom feeds for autodiscovery, but not on an error page", () => {
    const feeds = [
      { title: "Contact Form 7 vulnerabilities", path: "/database/wordpress/plugin/contact-form-7/feed" },
    ];
    const meta = buildMeta({ title: "Contact Form 7", feeds }, { location, config: config() });
    expect(find(meta, "rel", "alternate")).toEqual({
      tagName: "link",
      rel: "alternate",
      type: "application/atom+xml",
      title: "Contact Form 7 vulnerabilities",
      href: "/database/wordpress/plugin/contact-form-7/feed",
    });
    const error = thrownRouteError(404, "Page not found");
    expect(
      find(buildMeta({ feeds }, { location, config: config(), error }), "rel", "alternate"),
    ).toBeUndefined();
  });

  it("describes the database's own feed as a link its layout can announce", () => {
    expect(feedLinkOf(DATABASE_FEED)).toEqual({
      rel: "alternate",
      type: "application/atom+xml",
      title: "New WordPress vulnerabilities",
      href: "/database/feed",
    });
  });

  it("still gives a title when the root data is missing", () => {
    const meta = buildMeta({ title: "Leaderboard" }, { location, config: null });
    expect(titleOf(meta)).toBe("Leaderboard | Pressguard");
    expect(find(meta, "rel", "canonical")).toBeUndefined();
  });
});

describe("pageMeta", () => {
  const publicConfig = PublicConfig.parse({
    site: { url: "pressguard.test", name: "Pressguard", trailingSlash: "true" },
    auth: {
      endpoints: { login: "/login", logout: "/logout" },
      redirect: { onLogin: "/", onLogout: "/vdp/login" },
    },
    apiBase: "/api",
    buildId: "b1",
    canonicalQueryWhitelist: ["page"],
  });

  function args(overrides: Partial<MetaArgsLike> = {}): MetaArgsLike {
    return {
      location: { pathname: "/vdp/programs/12", search: "?page=2&x=1" },
      params: { id: "12" },
      matches: [
        { id: "root", loaderData: { publicConfig } },
        { id: "routes/vdp/program", loaderData: { id: "12" } },
      ],
      ...overrides,
    };
  }

  it("reads the site from the root loader data and computes the title from params", () => {
    const meta = pageMeta(({ params }) => `Program #${params.id}`)(args());
    expect(titleOf(meta)).toBe("Program #12 | Pressguard");
    expect(find(meta, "rel", "canonical")?.href).toBe("https://pressguard.test/vdp/programs/12/?page=2");
  });

  it("lets the route error win over the page title", () => {
    const meta = pageMeta("Program")(args({ error: thrownRouteError(404, "Page not found") }));
    expect(titleOf(meta)).toBe("404 | Page not found | Pressguard");
  });

  it("finds no config without a root match", () => {
    expect(configFromMatches([undefined, { id: "other", loaderData: {} }])).toBeNull();
  });
});
