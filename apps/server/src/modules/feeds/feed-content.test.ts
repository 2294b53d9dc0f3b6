import { descriptionHtml } from "@pressguard/domain";
import { Window } from "happy-dom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importVulnerabilities } from "../../db/import.ts";
import { SMASH_BALLOON_XSS } from "../../db/import-fixtures.ts";
import { createTestApp } from "../../test/app.ts";

/**
 * Issue 35: an entry of the Atom feeds carries the record's description as HTML content, rendered
 * as the record's page renders it: Wordfence's backticks are code, blank lines paragraphs.
 */
const DESCRIPTION =
  "The ViaAds plugin is vulnerable via the `ViaAds_pluginHandler` function & its <script>alert(1)</script> echo.\n\n" +
  "See [the advisory](https://www.wordfence.com/threat-intel/) or [this](javascript:alert(1)).";
const RECORD = { ...SMASH_BALLOON_XSS, description: DESCRIPTION };

let harness: Awaited<ReturnType<typeof createTestApp>>;

beforeAll(async () => {
  harness = await createTestApp({ APP_URL: "https://db.example.test" });
  const summary = await importVulnerabilities(harness.database, [JSON.stringify(RECORD)]);
  expect(summary.rejected).toEqual([]);
});
afterAll(() => harness.close());

/** The feed parsed as XML: the document's single entry's content element. */
function contentOf(feed: string) {
  const document = new new Window().DOMParser().parseFromString(feed, "application/xml");
  expect(document.getElementsByTagName("parsererror")).toHaveLength(0);
  const entries = document.getElementsByTagName("entry");
  expect(entries).toHaveLength(1);
  return entries[0]?.getElementsByTagName("content")[0];
}

describe("the Atom feeds' entry content", () => {
  it.each(["/database/feed", "/database/wordpress/plugin/custom-facebook-feed/feed"])(
    "%s carries an imported description as HTML: code, paragraphs, safe links",
    async (url) => {
      const response = await harness.app.inject({ method: "GET", url });
      expect(response.statusCode).toBe(200);
      const feed = response.body;
      // Escaped once inside the XML: a feed reader reads HTML, never a tag of the feed.
      expect(feed).toContain(
        "&lt;p&gt;The ViaAds plugin is vulnerable via the &lt;code&gt;ViaAds_pluginHandler&lt;/code&gt; function",
      );
      expect(feed).not.toContain("<code>");
      const content = contentOf(feed);
      expect(content?.getAttribute("type")).toBe("html");
      const html = content?.textContent ?? "";
      expect(html).toBe(descriptionHtml(DESCRIPTION));
      expect(html).toContain("<code>ViaAds_pluginHandler</code>");
      expect(html).toContain("</p>\n<p>See ");
      expect(html).toContain("&amp; its &lt;script&gt;alert(1)&lt;/script&gt; echo.");
      expect(html).toContain('href="https://www.wordfence.com/threat-intel/">the advisory</a>');
      expect(html).not.toContain("javascript:");
    },
  );
});
