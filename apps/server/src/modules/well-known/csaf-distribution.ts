import { osvIdOf } from "@pressguard/domain";
import { CSAF_SCHEMA_URL, CSAF_VERSION, csafPathOf } from "../vulnerabilities/csaf.ts";

/**
 * How the CSAF advisories are found (CSAF 2.0 §7, decision 029): the provider metadata at
 * `/.well-known/csaf/provider-metadata.json` (requirements 7 and 9), named by security.txt's `CSAF:`
 * field (requirement 8), and ROLIE feeds (requirement 15, RFC 8322 in its JSON form) of the TLP:WHITE
 * advisories, one per year of their initial release. Pure: the service gives the URLs, dates and rows.
 */

export const PROVIDER_METADATA_PATH = "/.well-known/csaf/provider-metadata.json";

/**
 * A ROLIE feed: part `part` (from 1) of a year's advisories,
 * `/.well-known/csaf/feed-tlp-white-<year>-<part>.json` (a feed URL must end in .json). A year is
 * split into parts of at most `ROLIE_FEED_SIZE` entries: most imported records have no source date and
 * fall in the year they were imported (25,876 of 37,205 in one year; at 250,000 records one feed would
 * be ~100 MB, more than the store that keeps it).
 */
const rolieFeedPath = (year: number, part: number) => `/.well-known/csaf/feed-tlp-white-${year}-${part}.json`;

/**
 * The complete ROLIE feed: every TLP:WHITE advisory in one feed, as CSAF §7.1.15 asks ("a ROLIE feed
 * document listing all TLP:WHITE CSAF documents"); the year feeds are subsets of it for clients that
 * want fewer bytes.
 */
export const COMPLETE_ROLIE_FEED_PATH = "/.well-known/csaf/feed-tlp-white.json";
const COMPLETE_ROLIE_FEED_ID = "csaf-feed-tlp-white";

/** Entries in one ROLIE feed at most (~6 MB of JSON, ~0.6 MB gzipped). */
export const ROLIE_FEED_SIZE = 10_000;

/** One feed of the distribution: a year's part. */
export interface RolieFeedRef {
  year: number;
  part: number;
  parts: number;
}

/** The role the site meets (decision 029): a provider; a trusted provider needs OpenPGP signatures. */
const ROLE = "csaf_provider";

export interface ProviderMetadataInput {
  /** SITE_URL, where these files are served. */
  siteUrl: string;
  /** APP_URL: the publisher's namespace, as in every advisory. */
  appUrl: string;
  publisherName: string;
  lastUpdated: string;
  feeds: readonly RolieFeedRef[];
}

export function renderProviderMetadata(input: ProviderMetadataInput) {
  const { siteUrl, appUrl, publisherName } = input;
  return {
    canonical_url: `${siteUrl}${PROVIDER_METADATA_PATH}`,
    last_updated: input.lastUpdated,
    list_on_CSAF_aggregators: true,
    metadata_version: "2.0",
    mirror_on_CSAF_aggregators: true,
    publisher: {
      category: "coordinator",
      name: publisherName,
      namespace: appUrl,
      contact_details: `Report a vulnerability: ${appUrl}/database/report. Security contact: ${siteUrl}/.well-known/security.txt.`,
    },
    role: ROLE,
    ...(input.feeds.length > 0
      ? {
          distributions: [
            {
              rolie: {
                feeds: [
                  {
                    summary: `Every TLP:WHITE advisory of ${publisherName}.`,
                    tlp_label: "WHITE",
                    url: `${siteUrl}${COMPLETE_ROLIE_FEED_PATH}`,
                  },
                  ...input.feeds.map(({ year, part, parts }) => ({
                    summary: `The TLP:WHITE advisories of ${publisherName} first released in ${year}${
                      parts > 1 ? `, part ${part} of ${parts}` : ""
                    }.`,
                    tlp_label: "WHITE",
                    url: `${siteUrl}${rolieFeedPath(year, part)}`,
                  })),
                ],
              },
            },
          ],
        }
      : {}),
  };
}

export interface RolieEntry {
  /** The record's uuid. */
  id: string;
  title: string;
  published: string;
  updated: string;
}

export interface RolieFeedInput {
  siteUrl: string;
  appUrl: string;
  publisherName: string;
  feed: RolieFeedRef;
  entries: readonly RolieEntry[];
}

/** One entry of a ROLIE feed: the advisory's tracking id, title, URL and release dates. */
function rolieEntryOf(appUrl: string, entry: RolieEntry) {
  const url = `${appUrl}${csafPathOf(entry.id)}`;
  return {
    id: osvIdOf(entry.id),
    title: entry.title,
    link: [{ rel: "self", href: url }],
    published: entry.published,
    updated: entry.updated,
    content: { type: "application/json", src: url },
    format: { schema: CSAF_SCHEMA_URL, version: CSAF_VERSION },
  };
}

const ROLIE_CATEGORY = [{ scheme: "urn:ietf:params:rolie:category:information-type", term: "csaf" }];

/** A ROLIE feed (RFC 8322 JSON, as CSAF §7.1.15 shows it): newest change first, then by id. */
export function renderRolieFeed(input: RolieFeedInput) {
  const { siteUrl, appUrl } = input;
  const { year, part, parts } = input.feed;
  const entries = [...input.entries].sort(
    (left, right) => right.updated.localeCompare(left.updated) || left.id.localeCompare(right.id),
  );
  return {
    feed: {
      id: `csaf-feed-tlp-white-${year}-${part}`,
      title: `${input.publisherName} CSAF advisories first released in ${year}${
        parts > 1 ? `, part ${part} of ${parts}` : ""
      } (TLP:WHITE)`,
      link: [{ rel: "self", href: `${siteUrl}${rolieFeedPath(year, part)}` }],
      category: ROLIE_CATEGORY,
      updated: entries[0]?.updated ?? `${year}-01-01T00:00:00Z`,
      entry: entries.map((entry) => rolieEntryOf(appUrl, entry)),
    },
  };
}

/**
 * The complete ROLIE feed written in pieces, so that it never needs every entry as objects at once:
 * the opening (`updated` is the newest change of any advisory), the entries of each batch as they
 * are read (in record id order), the closing. Joined, the pieces are one JSON document of the shape
 * of {@link renderRolieFeed}'s.
 */
export function completeRolieFeedPieces(input: {
  siteUrl: string;
  appUrl: string;
  publisherName: string;
  updated: string;
}) {
  const head = JSON.stringify({
    feed: {
      id: COMPLETE_ROLIE_FEED_ID,
      title: `${input.publisherName} CSAF advisories (TLP:WHITE)`,
      link: [{ rel: "self", href: `${input.siteUrl}${COMPLETE_ROLIE_FEED_PATH}` }],
      category: ROLIE_CATEGORY,
      updated: input.updated,
      entry: [],
    },
  });
  let first = true;
  return {
    // Everything up to the entries' array, opened: `{"feed":{…,"entry":[`.
    opening: head.slice(0, -"]}}".length),
    entries(entries: readonly RolieEntry[]): string {
      const text = entries.map((entry) => JSON.stringify(rolieEntryOf(input.appUrl, entry))).join(",");
      if (text === "") return "";
      const piece = first ? text : `,${text}`;
      first = false;
      return piece;
    },
    closing: "]}}",
  };
}
