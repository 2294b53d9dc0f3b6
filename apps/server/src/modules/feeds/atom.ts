import { describeFix, descriptionHtml } from "@pressguard/domain";
import { isoOf } from "../../db/timestamps.ts";
import { firstKnownAt, pagePaths } from "../public-records/presenters.ts";
import type { SummaryRow } from "../search/public.ts";

/** Atom (RFC 4287) documents of new vulnerabilities (issue 5). */

/** Whether XML 1.0 allows a character (tab, newline, carriage return, and everything from space up). */
function allowedInXml(character: string): boolean {
  const code = character.codePointAt(0) ?? 0;
  if (code < 0x20) return code === 0x09 || code === 0x0a || code === 0x0d;
  return code !== 0xfffe && code !== 0xffff;
}

function xml(text: string): string {
  // Characters XML 1.0 forbids would make the whole feed invalid: they are dropped.
  return Array.from(text)
    .filter(allowedInXml)
    .join("")
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
}

/** A feed's record: its summary row and its description (null or empty: none). */
export type FeedEntryRow = SummaryRow & { description: string | null };

/** When the record became known: the same date as its OSV record's `published` (decision 025). */
const entryDate = (row: FeedEntryRow) => isoOf(firstKnownAt(row.published_at, row.created_at));

export function renderAtomFeed(options: {
  title: string;
  selfUrl: string;
  alternateUrl: string;
  appUrl: string;
  rows: FeedEntryRow[];
}): string {
  const { title, selfUrl, alternateUrl, appUrl, rows } = options;
  const updated = rows.map(entryDate).sort().at(-1) ?? new Date(0).toISOString();
  const entries = rows.map((row) => {
    const product = { platform: row.platform, kind: row.kind, slug: row.product_slug };
    const url = appUrl + pagePaths.vulnerability(product, row.slug);
    const summary = [
      `${row.product_name} (${row.kind})`,
      row.affected_versions ? `affected: ${row.affected_versions}` : null,
      describeFix(row, { inline: true }),
      row.cve,
      row.severity
        ? `severity ${row.severity}${row.cvss_score != null ? ` (${Number(row.cvss_score).toFixed(1)})` : ""}`
        : null,
    ]
      .filter(Boolean)
      .join(", ");
    return [
      "  <entry>",
      `    <title type="text">${xml(row.title)}</title>`,
      `    <id>urn:uuid:${row.id}</id>`,
      `    <link rel="alternate" type="text/html" href="${xml(url)}"/>`,
      `    <updated>${entryDate(row)}</updated>`,
      ...(row.published_at ? [`    <published>${isoOf(row.published_at)}</published>`] : []),
      `    <summary type="text">${xml(summary)}</summary>`,
      // The description as the record's page shows it (issue 35): HTML, escaped once more for XML.
      ...(row.description
        ? [`    <content type="html">${xml(descriptionHtml(row.description))}</content>`]
        : []),
      ...(row.severity ? [`    <category term="${xml(row.severity)}" label="Severity"/>`] : []),
      "  </entry>",
    ].join("\n");
  });
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <title type="text">${xml(title)}</title>`,
    `  <id>${xml(selfUrl)}</id>`,
    `  <link rel="self" type="application/atom+xml" href="${xml(selfUrl)}"/>`,
    `  <link rel="alternate" type="text/html" href="${xml(alternateUrl)}"/>`,
    `  <updated>${updated}</updated>`,
    "  <author><name>Pressguard</name></author>",
    `  <rights type="text">${xml(
      "Vulnerability information Copyright Defiant Inc. (Wordfence Intelligence), redistributed under the Wordfence Intelligence license; CVE identifiers Copyright The MITRE Corporation. See /database/about-data.",
    )}</rights>`,
    ...entries,
    "</feed>",
    "",
  ].join("\n");
}
