import { MAX_CHECK_ITEMS, OSV_ID_PREFIX, SEARCH_MATCH_LIMIT } from "@pressguard/domain";
import { ACCOUNT_PATH } from "../../lib/navigation.ts";
import { formatCount } from "../../lib/numbers.ts";
import { STATIC_PAGE } from "../../lib/route-handle.ts";
import { pageMeta } from "../../lib/seo.ts";
import { PageHeader } from "../../ui/page-header.tsx";

/** A reading page: sent without JavaScript (decision 007). */
export const handle = STATIC_PAGE;

export const meta = pageMeta(
  "Database API",
  "Read the WordPress vulnerability database as JSON, OSV or Atom, and check installed versions in bulk.",
);

/** KEY: a key of the watchlists scope; ID: the site's watchlist; PRESSGUARD: this site's address. */
const INVENTORY_RECIPES = [
  "# PRESSGUARD=https://… KEY=pgk_… ID=<the site's watchlist id>",
  'wp plugin list --format=json | curl -fsS -X PUT -H "Authorization: Bearer $KEY" --data-binary @- "$PRESSGUARD/api/watchlists/$ID/inventory?kind=plugin"',
  'wp theme list --format=json | curl -fsS -X PUT -H "Authorization: Bearer $KEY" --data-binary @- "$PRESSGUARD/api/watchlists/$ID/inventory?kind=theme"',
  'curl -fsS -X PUT -H "Authorization: Bearer $KEY" --data-binary @composer.lock "$PRESSGUARD/api/watchlists/$ID/inventory"',
  'printf \'akismet 5.3\\nwoocommerce 8.9.1\\n\' | curl -fsS -X PUT -H "Authorization: Bearer $KEY" --data-binary @- "$PRESSGUARD/api/watchlists/$ID/inventory?kind=plugin"',
].join("\n");

const ENDPOINTS: { method: string; path: string; what: string }[] = [
  {
    method: "GET",
    path: "/api/v1/vulnerabilities?q=&kind=&type=&severity=&patched=&year=&sort=date|relevance&page=&per_page=",
    what: "Search: full text over title, description, product name and slug; a CVE id (any case, or the bare 2024-4704), a record id or a CWE id finds its records exactly. When q names a product (its name, slug, the first letters of its words, or a misspelling), products lists it first and its records come before the other matches (records_first); the rest of q (elementor xss) searches its records, where xss, sqli, csrf, ssrf, rce, lfi, rfi, idor and xxe read as the type's name. Answers { data, pagination, products, records_first, researchers, did_you_mean }.",
  },
  {
    method: "GET",
    path: "/api/v1/autocomplete?q=&kind=",
    what: "The search box's suggestions: at most 8 products the text names, each with its current version, installs and counts of known and unfixed vulnerabilities.",
  },
  {
    method: "GET",
    path: "/api/v1/vulnerabilities/{id}",
    what: "One vulnerability with every field and its page URL; {id} is our id (the source's id for imported records), a CVE id or the slug.",
  },
  {
    method: "GET",
    path: "/api/v1/osv/{id}",
    what: `The same record as an OSV document (see OSV records below); {id} is its OSV id, ${OSV_ID_PREFIX}<uuid>, and may also be the CVE id or the slug. The bare uuid (the OSV id until November 2026) answers 301 Moved Permanently to /api/v1/osv/${OSV_ID_PREFIX}<uuid>.`,
  },
  {
    method: "GET",
    path: "/api/v1/csaf/{id}",
    what: `The same record as a CSAF 2.0 security advisory (see CSAF advisories below); {id} is the document's file name, ${OSV_ID_PREFIX.toLowerCase()}<uuid>.json, or any id /api/v1/osv/{id} accepts (${OSV_ID_PREFIX}<uuid>, the uuid, the CVE id, the slug), which answer the same document.`,
  },
  {
    method: "GET",
    path: "/.well-known/csaf/provider-metadata.json",
    what: "The CSAF provider metadata: the publisher, its role and the ROLIE feeds of the advisories, by year of their first release, in parts of at most 10,000 (/.well-known/csaf/feed-tlp-white-<year>-<part>.json). security.txt names it in its CSAF field.",
  },
  {
    method: "GET",
    path: "/api/v1/osv",
    what: "The bulk export: every record as OSV, one JSON document per line (application/x-ndjson, JSON Lines), in id order. Each line equals the answer of /api/v1/osv/{id}. Built once per data version and sent gzip-compressed when the client accepts gzip, with ETag and Last-Modified (304 on revalidation) and byte ranges for resumed downloads. ?modified_since=<ISO 8601 time> sends only the records modified later. Any other query parameter is refused with 422.",
  },
  {
    method: "GET",
    path: "/api/v1/osv/all.zip",
    what: "The same records one file each, <OSV id>.json, in a zip archive, as osv.dev serves a source's all.zip. ETag, Last-Modified and byte ranges as above.",
  },
  {
    method: "GET",
    path: "/api/v1/osv/modified_id.csv",
    what: "<modified>,<OSV id> per line, newest first, no header (osv.dev's format): fetch only what changed since your last sync.",
  },
  {
    method: "POST",
    path: "/api/v1/check",
    what: `Body { "items": [{ "kind": "plugin", "slug": "contact-form-7", "version": "5.9.4" }] } (up to ${MAX_CHECK_ITEMS} items): the known vulnerabilities affecting each version. Slugs match whatever their case; "version": "latest" checks the product's current version (checked_version says which one was compared); known: false marks a product the database does not know, whose empty list proves nothing. A version that is not a number is refused with 422. A record with no fix listed whose range the product's current version is past carries fixed_in_inferred (that current version).`,
  },
  {
    method: "GET",
    path: "/api/v1/products/{platform}/{kind}/{slug}",
    what: "A product with its counters; then /api/products/{id}/vulnerabilities?filter[tab]=present|fixed&page= and /api/products/{id}/contributors.",
  },
  { method: "GET", path: "/api/v1/programs?q=&page=", what: "The active VDP directory." },
  {
    method: "GET",
    path: "/api/v1/products?q=&kind=&page=",
    what: "Products by name or slug, each word a prefix (the report form's product search).",
  },
  {
    method: "GET",
    path: "/api/v1/researchers/{uuid}",
    what: "A researcher's profile, points and rank; /vulnerabilities lists their published vulnerabilities.",
  },
  { method: "GET", path: "/api/v1/leaderboard/{monthly|yearly|all-time}", what: "The leaderboards." },
  {
    method: "GET",
    path: "/api/v1/statistics/wordpress/{all-time|last-30-days|YYYY}",
    what: "Counts by kind, type, severity and patch status, the monthly trend and the top researchers.",
  },
  {
    method: "GET",
    path: "/database/feed",
    what: "Atom 1.0 feed (application/atom+xml) of the 50 newest vulnerabilities of the whole database.",
  },
  {
    method: "GET",
    path: "/database/{platform}/{kind}/{slug}/feed",
    what: "The same feed for one product, e.g. /database/wordpress/plugin/contact-form-7/feed; an unknown product is 404.",
  },
];

/** The machine-readable access of the public database, documented for people (issue 5). */
export default function DatabaseApiPage() {
  return (
    <>
      <PageHeader
        eyebrow="Public database"
        title="Database API"
        lead="Everything on the database pages is available to programs: JSON, OSV, Atom and a batch version check. No key is needed."
      />
      <div className="prose-like max-w-4xl space-y-6">
        <p>
          Public answers carry <code>ETag</code> and <code>Cache-Control</code> headers: send{" "}
          <code>If-None-Match</code> to get <code>304 Not Modified</code> when nothing changed. Lists answer{" "}
          <code>
            {
              "{ data, pagination: { current_page, per_page, total, last_page, next_page_url, prev_page_url } }"
            }
          </code>
          ; a bad query value answers 422 with the field's message, an unknown id 404. The full contract is
          the OpenAPI document at <a href="/api/openapi.json">/api/openapi.json</a>.
        </p>
        <p>
          A search by words counts and orders at most {formatCount(SEARCH_MATCH_LIMIT)} matches. When more
          match, <code>pagination.total_capped</code> is <code>true</code>, <code>total</code> is that limit,
          the newest come first and the pages stop there: narrow the search, or read every record from the OSV
          bulk export. A list by filters alone (or none) counts exactly and its pages reach every record.
        </p>
        <p>
          <strong>Watchlists</strong> (for site owners, agencies and hosts): with an API key of the{" "}
          <code>watchlists</code> scope, made on <a href={ACCOUNT_PATH}>your account page</a> (every account
          has one, a site owner's too) and sent as <code>Authorization: Bearer pgk_…</code>,{" "}
          <code>POST /api/watchlists</code> keeps a named list of what a site runs (
          <code>{'{ "name", "entries": [{ "kind", "slug", "version" }] }'}</code>, the check's items),{" "}
          <code>PUT /api/watchlists/{"{id}"}/entries</code> replaces them after an update,{" "}
          <code>GET /api/watchlists/{"{id}"}</code> answers each entry's known vulnerabilities with the
          version to update to, and <code>GET /api/watchlists/exposures</code> every watchlist's exposed
          entries at once. When a record affecting a watched version is published or materially changed
          (severity, fix, ranges), the owner is e-mailed, at once or in a daily digest (<code>PATCH</code> its{" "}
          <code>alert_mode</code>: <code>immediate</code>, <code>daily</code> or <code>off</code>).{" "}
          <code>POST /api/watchlists/{"{id}"}/webhooks</code> (<code>{'{ "url", "format" }'}</code>, format{" "}
          <code>json</code>, <code>slack</code> or <code>discord</code>) sends the alerts at once, whatever
          the e-mail's mode, to your own receiver or a Slack or Discord incoming webhook: each request is
          signed like report forwarding's (<code>X-Pressguard-Signature: t=…,v1=…</code>, HMAC-SHA256 with the
          secret shown once), retried for 24 hours, and logged at{" "}
          <code>
            GET /api/watchlists/{"{id}"}/webhooks/{"{webhookId}"}/deliveries
          </code>
          .
        </p>
        <p>
          <strong>From a server's cron</strong>, one line per site:{" "}
          <code>PUT /api/watchlists/{"{id}"}/inventory</code> takes the inventory as the tool prints it —{" "}
          <code>wp plugin list --format=json</code>, <code>wp theme list --format=json</code>, a{" "}
          <code>composer.lock</code>, or <code>slug version</code> lines — replaces that kind's entries (the
          others stay), and answers the watchlist with what it matched, what it did not know and why it
          skipped a line. A list from <code>wp</code> or plain lines needs <code>?kind=plugin</code> or{" "}
          <code>?kind=theme</code>; a body it cannot read changes nothing (422, 413 above 2 MB).
        </p>
        <pre className="whitespace-pre-wrap break-all rounded-md bg-slate-900 p-3 font-mono text-xs text-slate-100">
          {INVENTORY_RECIPES}
        </pre>
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Endpoints</caption>
          <thead>
            <tr>
              <th scope="col" className="py-2 pr-4">
                Endpoint
              </th>
              <th scope="col" className="py-2">
                What it answers
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200 align-top">
            {ENDPOINTS.map((endpoint) => (
              <tr key={endpoint.path}>
                <td className="py-2 pr-4 break-all">
                  <code>
                    {endpoint.method} {endpoint.path}
                  </code>
                </td>
                <td className="py-2">{endpoint.what}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <h2 id="osv">OSV records</h2>
        <p>
          Records follow the <a href="https://ossf.github.io/osv-schema/">OSV schema</a> (
          <code>schema_version</code> 1.7.5) and pass its official JSON schema. OSV has no WordPress
          ecosystem, so components are named the way Composer installs them: plugins and themes as{" "}
          <a href="https://wpackagist.org/">WPackagist</a> packages (ecosystem{" "}
          <code>Packagist:https://wpackagist.org</code>, name <code>wpackagist-plugin/&lt;slug&gt;</code> or{" "}
          <code>wpackagist-theme/&lt;slug&gt;</code>) and WordPress core as <code>roots/wordpress</code>{" "}
          (ecosystem <code>Packagist</code>), with a <code>purl</code>. Versions are the WordPress.org version
          strings; ranges are <code>ECOSYSTEM</code> ranges with <code>introduced</code> (<code>0</code> when
          unknown) and <code>fixed</code> or <code>last_affected</code>. OSV's <code>introduced</code>{" "}
          includes its version: a range that starts after a version (<code>&gt; X</code>) is written{" "}
          <code>introduced: X</code> with <code>introduced_exclusive: true</code> in the range's{" "}
          <code>database_specific</code>. Each package's <code>database_specific</code> keeps the
          WordPress.org kind and slug; the record's keeps <code>source_id</code>, <code>source_url</code> and{" "}
          <code>attribution</code>. The <code>id</code> is <code>{OSV_ID_PREFIX}&lt;uuid&gt;</code>: OSV's{" "}
          <code>x_</code> prefix for a database without a registered prefix, then our id (the source's id for
          imported records); the CVE id is in <code>aliases</code>. <code>published</code> is the source's
          publication date, or the day the record was imported when the source gives none (the date its feed
          entry carries); <code>modified</code> is the source's last update (else its publication) when the
          source dates the record, otherwise its last change here; the record answer gives both as{" "}
          <code>record_dates</code>, and the CSAF advisory and the sitemap say the same. Each package's{" "}
          <code>database_specific</code> also gives the product's <code>purl</code> (
          <code>pkg:wordpress/&lt;slug&gt;</code>), <code>composer</code> name and, for core, its{" "}
          <code>cpe</code>: the identifiers the product API returns as <code>identifiers</code>.
        </p>
        <h2 id="csaf">CSAF advisories</h2>
        <p>
          Every record is also a <a href="https://docs.oasis-open.org/csaf/csaf/v2.0/">CSAF 2.0</a> security
          advisory (<code>csaf_security_advisory</code>, TLP:WHITE) that passes the official CSAF JSON schema.
          Its <code>tracking.id</code> is the OSV id and its dates are the OSV record's. The product tree has
          a vendor (the plugin's author, WordPress for core), the product, one{" "}
          <code>product_version_range</code> per affected range as a <code>vers</code> string (
          <code>vers:wordpress/&gt;=1.0|&lt;2.0</code>) and one <code>product_version</code> per fixed
          version, each with its <code>purl</code> (and CPE for core). The vulnerability gives the CVE and CWE
          when known, the CVSS v3 score, which products are affected and fixed (including a fix inferred from
          the product's current version), what to update to, and the credited researchers. The source's
          attribution and licence travel with every document. Find them all through{" "}
          <code>/.well-known/csaf/provider-metadata.json</code> and its ROLIE feeds.
        </p>
        <h2 id="feeds">Feeds</h2>
        <p>
          The Atom feeds list the newest records first by publication date; records without one are dated by
          the day they were imported. Each entry links to the vulnerability page and sums up the product,
          affected versions, fix, CVE id and severity. Feeds are cached for 15 minutes and answer{" "}
          <code>ETag</code> and <code>304</code> like the JSON API.
        </p>
        <p>
          The records come from Wordfence Intelligence and the CVE Program: every record keeps{" "}
          <code>source_url</code> and <code>attribution</code>, and any copy must keep them (
          <a href="/database/about-data">about the data</a>).
        </p>
      </div>
    </>
  );
}
