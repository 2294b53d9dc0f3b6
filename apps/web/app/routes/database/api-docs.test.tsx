import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { STATIC_PAGE } from "../../lib/route-handle.ts";
import DatabaseApiPage, { handle } from "./api-docs.tsx";

describe("the database API page", () => {
  const html = renderToStaticMarkup(<DatabaseApiPage />);

  it("documents the Atom feeds and the OSV bulk export with their media types", () => {
    expect(html).toContain("GET /database/feed");
    expect(html).toContain("GET /database/{platform}/{kind}/{slug}/feed");
    expect(html).toContain("application/atom+xml");
    expect(html).toContain("GET /api/v1/osv</code>");
    expect(html).toContain("application/x-ndjson");
  });

  it("names OSV records by their x_PRESSGUARD- id and says where the bare uuid goes", () => {
    expect(html).toContain("x_PRESSGUARD-&lt;uuid&gt;");
    expect(html).toContain("301 Moved Permanently to /api/v1/osv/x_PRESSGUARD-&lt;uuid&gt;");
    expect(html).toContain("introduced_exclusive: true");
  });

  it("says how OSV packages are named", () => {
    expect(html).toContain("Packagist:https://wpackagist.org");
    expect(html).toContain("wpackagist-plugin/&lt;slug&gt;");
    expect(html).toContain("roots/wordpress");
  });

  it("documents the CSAF advisories, their provider metadata and the package identifiers", () => {
    expect(html).toContain("GET /api/v1/csaf/{id}</code>");
    expect(html).toContain("x_pressguard-&lt;uuid&gt;.json");
    expect(html).toContain("GET /.well-known/csaf/provider-metadata.json</code>");
    expect(html).toContain("pkg:wordpress/&lt;slug&gt;");
  });

  it("links the watchlists key to the account page every account has (issue 38)", () => {
    expect(html).toMatch(/made on\s+<a href="\/account">your account page<\/a>/);
  });

  it("gives the one-line cron recipe for each kind of inventory (issue 35)", () => {
    for (const recipe of [
      "wp plugin list --format=json | curl -fsS -X PUT",
      "wp theme list --format=json | curl -fsS -X PUT",
      "--data-binary @composer.lock",
      "printf &#x27;akismet 5.3",
    ])
      expect(html).toContain(recipe);
    expect(html).toContain("/api/watchlists/$ID/inventory?kind=plugin");
    expect(html).toContain("/api/watchlists/$ID/inventory?kind=theme");
  });

  it("stays a static reading page", () => {
    expect(handle).toBe(STATIC_PAGE);
  });
});
