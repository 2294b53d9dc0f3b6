import { z } from "zod";
import { ComponentKind } from "../enums/component-kinds.ts";
import { SoftwareType } from "../enums/software-types.ts";
import { ForwardWebhookTargetInput } from "../vendors/forwarding.ts";
import { compareVersions } from "../versions/compare-versions.ts";
import { CheckedVulnerability, CheckRequest } from "./public-database.ts";

/**
 * Watchlists (issue 20, decision 031): the plugins, themes and WordPress core a site runs, each with
 * its installed version, kept by a signed-in user (a site owner, an agency, a host: many per account,
 * named) and read with the known vulnerabilities that affect each installed version.
 */

/** An account keeps at most this many watchlists (an agency's or a host's sites). */
export const MAX_WATCHLISTS = 1_000;
/** A watchlist holds at most this many entries (a site's plugins, themes and core). */
export const MAX_WATCHLIST_ENTRIES = 500;

export const WATCHLIST_MESSAGES = {
  nameRequired: "Give the watchlist a name, such as the site's address.",
  nameTooLong: "The name may not be greater than 100 characters.",
  tooManyEntries: `A watchlist holds at most ${MAX_WATCHLIST_ENTRIES} entries.`,
  tooManyWatchlists: `An account keeps at most ${MAX_WATCHLISTS} watchlists.`,
  notFound: "Watchlist not found.",
} as const;

/** One watched product and its installed version: the batch check's item (the same rules). */
export const WatchlistEntryInput = CheckRequest.shape.items.element;
export type WatchlistEntryInput = z.infer<typeof WatchlistEntryInput>;

const WatchlistName = z
  .string({ error: WATCHLIST_MESSAGES.nameRequired })
  .trim()
  .min(1, WATCHLIST_MESSAGES.nameRequired)
  .max(100, WATCHLIST_MESSAGES.nameTooLong);

const WatchlistEntries = z
  .array(WatchlistEntryInput)
  .max(MAX_WATCHLIST_ENTRIES, WATCHLIST_MESSAGES.tooManyEntries);

/** `POST /api/watchlists`. An entry named twice (same kind and slug, any case) is kept once: the last. */
export const WatchlistCreation = z
  .strictObject({ name: WatchlistName, entries: WatchlistEntries.default([]) })
  .meta({ id: "WatchlistCreation" });
export type WatchlistCreation = z.infer<typeof WatchlistCreation>;

/**
 * How a watchlist's alerts are sent (decision 031): an e-mail as soon as a record affecting an entry
 * is published or materially changed, one digest a day, or none.
 */
export const WATCH_ALERT_MODES = ["immediate", "daily", "off"] as const;
export const WatchAlertMode = z.enum(WATCH_ALERT_MODES, {
  error: "Choose immediate, daily or off.",
});
export type WatchAlertMode = z.infer<typeof WatchAlertMode>;

/** `PATCH /api/watchlists/{id}`: its name, its alerts, or both. */
export const WatchlistUpdate = z
  .strictObject({ name: WatchlistName.optional(), alert_mode: WatchAlertMode.optional() })
  .refine((update) => update.name !== undefined || update.alert_mode !== undefined, {
    message: "Send a name or an alert_mode.",
  })
  .meta({ id: "WatchlistUpdate" });
export type WatchlistUpdate = z.infer<typeof WatchlistUpdate>;

/** `PUT /api/watchlists/{id}/entries`: every entry, replacing the previous ones (a re-uploaded inventory). */
export const WatchlistEntriesReplacement = z
  .strictObject({ entries: WatchlistEntries })
  .meta({ id: "WatchlistEntriesReplacement" });
export type WatchlistEntriesReplacement = z.infer<typeof WatchlistEntriesReplacement>;

/** `PUT /api/watchlists/{id}/inventory?kind=`: what the list holds when the body cannot say it. */
export const InventoryQuery = z.strictObject({
  kind: z
    .enum(SoftwareType.options, { error: "kind is plugin or theme." })
    .optional()
    .describe(
      "What a `wp … list --format=json` or a plain `slug version` list holds; a composer.lock says it itself.",
    ),
});
export type InventoryQuery = z.infer<typeof InventoryQuery>;

/** A watchlist in a list: its counts of entries and of exposures. */
export const WatchlistSummary = z
  .object({
    id: z.string(),
    name: z.string(),
    alert_mode: WatchAlertMode,
    entries: z.number().int(),
    /** Entries whose installed version has at least one known vulnerability. */
    exposed_entries: z.number().int(),
    /** Known vulnerabilities affecting the installed versions, counted once per entry. */
    vulnerabilities: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: "WatchlistSummary" });
export type WatchlistSummary = z.infer<typeof WatchlistSummary>;

/** One entry with what affects its installed version. */
export const WatchlistEntry = z
  .object({
    kind: z.string(),
    slug: z.string(),
    version: z.string(),
    /** Whether the database knows the product; an unknown one has no known vulnerabilities. */
    known: z.boolean(),
    /** The product's page, when known. */
    product_url: z.string().nullable(),
    vulnerabilities: z.array(CheckedVulnerability),
    /**
     * The version that fixes every vulnerability of the installed one that has a fix: the highest of
     * their fixes ("update to ≥ 5.9.5"); null when none has one, or none affects it.
     */
    update_to: z.string().nullable(),
    /** Vulnerabilities of the installed version with no known fix: updating does not remove them. */
    unfixed: z.number().int(),
  })
  .meta({ id: "WatchlistEntry" });
export type WatchlistEntry = z.infer<typeof WatchlistEntry>;

export const WatchlistDetail = WatchlistSummary.extend({ items: z.array(WatchlistEntry) }).meta({
  id: "WatchlistDetail",
});
export type WatchlistDetail = z.infer<typeof WatchlistDetail>;

/** `PUT /api/watchlists/{id}/inventory`: the watchlist after the inventory, and what was read of it. */
export const WatchlistInventoryResult = z
  .object({
    watchlist: WatchlistDetail,
    inventory: z.object({
      format: z
        .enum(["wp-cli", "composer", "plain"])
        .describe(
          "What the body was read as: `wp … list --format=json`, a composer.lock, or `slug version` lines.",
        ),
      replaced: z
        .array(ComponentKind)
        .describe("The kinds of entry the inventory replaced; the watchlist's other entries are kept."),
      read: z.number().int().describe("Entries read from the body."),
      matched: z.number().int().describe("Of those, products the database knows."),
      unknown: z
        .array(z.object({ kind: z.string(), slug: z.string(), version: z.string() }))
        .describe(
          "Entries the database does not know (a private or misspelt product): no vulnerability can match them.",
        ),
      problems: z.array(z.string()).describe("Lines or entries skipped or merged, each with why."),
    }),
  })
  .meta({ id: "WatchlistInventoryResult" });
export type WatchlistInventoryResult = z.infer<typeof WatchlistInventoryResult>;

/** `GET /api/watchlists`: the account's watchlists, by name. */
export const WatchlistList = z.object({ data: z.array(WatchlistSummary) }).meta({ id: "WatchlistList" });
export type WatchlistList = z.infer<typeof WatchlistList>;

/** What a record means for one entry: the range of the entry's own product and that product's fix. */
export const ExposureMatch = CheckedVulnerability.pick({
  id: true,
  affected_versions: true,
  fixed_in: true,
  fixed_in_inferred: true,
}).meta({ id: "ExposureMatch" });

/** A record as the report lists it once: what does not depend on the product it is matched for. */
export const ExposedRecord = CheckedVulnerability.omit({
  affected_versions: true,
  fixed_in: true,
  fixed_in_inferred: true,
}).meta({ id: "ExposedRecord" });

/**
 * An exposed entry in the report: its records by id (each record once, in the report's
 * `vulnerabilities`) and, per record, this entry's range and fix (issue 38: a record naming several
 * products has a range and a fix per product).
 */
export const ExposedEntry = WatchlistEntry.omit({ vulnerabilities: true }).extend({
  vulnerability_ids: z.array(z.string()),
  matches: z.array(ExposureMatch),
});
export type ExposedEntry = z.infer<typeof ExposedEntry>;

/**
 * `GET /api/watchlists/exposures`: every watchlist with only its exposed entries, for a script. A
 * record affecting many sites is listed once (an agency's 1,000 sites repeat the same records: 115 MB
 * with each record in each entry, measured in bench/watch-alerts.ts).
 */
export const WatchlistExposureReport = z
  .object({
    generated_at: z.string(),
    watchlists: z.array(WatchlistSummary.extend({ items: z.array(ExposedEntry) })),
    vulnerabilities: z.record(z.string(), ExposedRecord),
  })
  .meta({ id: "WatchlistExposureReport" });
export type WatchlistExposureReport = z.infer<typeof WatchlistExposureReport>;

/**
 * The version to update to so that none of these vulnerabilities that has a fix affects the site any
 * more: the highest of their fixes (those without one are counted apart). Null when none has a fix.
 */
export function versionToUpdateTo(vulnerabilities: readonly { fixed_in: string | null }[]): string | null {
  let target: string | null = null;
  for (const { fixed_in: fixedIn } of vulnerabilities) {
    if (fixedIn && (target === null || compareVersions(fixedIn, target) > 0)) target = fixedIn;
  }
  return target;
}

/** How many alert webhooks a watchlist may have. */
export const MAX_WATCHLIST_WEBHOOKS = 5;

/**
 * `POST /api/watchlists/{id}/webhooks`: an alert webhook, signed like report forwarding's, in
 * Pressguard's JSON or a Slack or Discord incoming webhook's own message format.
 */
export const WatchlistWebhookInput = ForwardWebhookTargetInput.pick({ url: true, format: true });
export type WatchlistWebhookInput = z.input<typeof WatchlistWebhookInput>;
