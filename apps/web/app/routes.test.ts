import type { RouteConfigEntry } from "@react-router/dev/routes";
import type { MetaDescriptor } from "react-router";
import { describe, expect, it } from "vitest";
import type { MetaArgsLike } from "./lib/seo.ts";
import routes from "./routes.ts";

/**
 * Every page of the route table has a `<meta name="description">` (Lighthouse's SEO audit
 * `meta-description`), signed-in pages included. The meta a page shows is that of the deepest route
 * of its branch that exports one (React Router), else the root's, which has no description.
 */

/** Route modules that never render a page, with the reason. */
const NEVER_RENDERED: Record<string, string> = {
  "routes/home.tsx": "its loader always redirects",
  "routes/not-found.tsx": "its loader always throws a 404; error pages are noindex and carry no description",
};

/** A concrete value for each path parameter, so titles and descriptions computed from them read as on the site. */
const SAMPLE_PARAMS: Record<string, string> = {
  id: "12",
  number: "INV-2026-000001",
  platform: "wordpress",
  kind: "plugin",
  product: "contact-form-7",
  slug: "contact-form-7",
};

interface Page {
  file: string;
  pathname: string;
  params: Record<string, string>;
  /** The route modules of the branch, root first, the page last. */
  branch: string[];
}

/** The pages of the route table, optional segments left out and parameters filled with samples. */
function pagesOf(entries: RouteConfigEntry[], parentPath = "", branch = ["root.tsx"]): Page[] {
  return entries.flatMap((entry) => {
    const path = [parentPath, entry.path ?? ""].filter(Boolean).join("/");
    const modules = [...branch, entry.file];
    if (entry.children) return pagesOf(entry.children, path, modules);
    const params: Record<string, string> = {};
    const segments = path
      .split("/")
      .filter((segment) => segment && !segment.endsWith("?"))
      .map((segment) => {
        if (segment === "*") return "no-such-page";
        if (!segment.startsWith(":")) return segment;
        const name = segment.slice(1);
        params[name] = SAMPLE_PARAMS[name] ?? `sample-${name}`;
        return params[name];
      });
    return [{ file: entry.file, pathname: `/${segments.join("/")}`, params, branch: modules }];
  });
}

type MetaFunction = (args: MetaArgsLike & { data: unknown }) => MetaDescriptor[];

/** The meta function React Router uses for the page: the deepest of its branch. */
async function metaOf(page: Page): Promise<MetaFunction | undefined> {
  let meta: MetaFunction | undefined;
  for (const file of page.branch) {
    const module = (await import(`./${file}`)) as { meta?: MetaFunction };
    meta = module.meta ?? meta;
  }
  return meta;
}

const pages = pagesOf(routes).filter((page) => !(page.file in NEVER_RENDERED));

describe("the route table's pages", () => {
  it("are all walked, tabs that share a module included", () => {
    expect(pages.map((page) => page.pathname)).toEqual(
      expect.arrayContaining(["/vdp/programs/all", "/watchlists", "/researchers/sample-uuid/published"]),
    );
  });

  it.each(pages.map((page) => [page.pathname, page] as const))(
    "%s has a meta description",
    async (_pathname, page) => {
      const meta = await metaOf(page);
      const descriptors =
        meta?.({
          location: { pathname: page.pathname, search: "" },
          params: page.params,
          matches: [],
          error: undefined,
          data: undefined,
        }) ?? [];
      const description = descriptors.find(
        (descriptor) => (descriptor as { name?: unknown }).name === "description",
      ) as { content?: unknown } | undefined;
      const content = typeof description?.content === "string" ? description.content.trim() : "";
      expect(content, `the meta of ${page.file} (or of its layouts) gives no description`).not.toBe("");
    },
  );
});
