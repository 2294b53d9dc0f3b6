import { type WatchlistEntry, WatchlistEntryInput } from "@pressguard/domain";
import { byUrgency, VulnerabilityList } from "../../components/checked-vulnerability.tsx";
import { apiErrorAtField } from "../../lib/form-errors.ts";
import { errorIdFor, INPUT_CLASS } from "../../ui/form-field.tsx";
import { Link } from "../../ui/link.tsx";
import { useSchemaForm } from "../../ui/use-schema-form.ts";

const KIND_LABELS: Record<string, string> = { plugin: "Plugin", theme: "Theme", core: "WordPress core" };

/** The product's page on this site (the API gives its absolute address). */
const pathOf = (url: string) => {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
};

const VersionChange = WatchlistEntryInput.pick({ version: true });
/** Shown at once for an entry; the rest fold under a "more" line. */

/** What to do about an exposed entry: the version to update to, and what no update fixes. */
export function adviceOf(entry: Pick<WatchlistEntry, "vulnerabilities" | "update_to" | "unfixed">): string {
  const count = entry.vulnerabilities.length;
  if (count === 0) return "";
  const unfixed =
    entry.unfixed === 0
      ? ""
      : entry.unfixed === count
        ? "No fix yet."
        : `No fix yet for ${entry.unfixed} of them.`;
  return [entry.update_to ? `Update to ≥ ${entry.update_to}.` : "", unfixed].filter(Boolean).join(" ");
}

const VERSION_FIELDS = ["version"] as const;
/** The API answers about the entry by its place in the list it replaces (`entries.4.version`). */
const versionFieldOf = (field: string) => (/^entries\.\d+\.version$/.test(field) ? "version" : field);

/** The installed version, changed in place: the page then reads the entry's exposures again. */
function VersionForm({
  entry,
  onSave,
}: {
  entry: WatchlistEntry;
  onSave: (version: string) => Promise<void>;
}) {
  const form = useSchemaForm({
    schema: VersionChange,
    fields: VERSION_FIELDS,
    initialValues: { version: entry.version },
    idPrefix: `entry-${entry.kind}-${entry.slug}`,
    onSubmit: ({ version }) => onSave(version),
    errorsOf: (error) => apiErrorAtField(error, "version", versionFieldOf),
  });
  const { values, errors, busy } = form;
  const id = form.idOf("version");

  return (
    <form method="post" onSubmit={form.handleSubmit} noValidate className="flex flex-wrap items-end gap-2">
      <div className="w-36">
        <label htmlFor={id} className="block text-xs text-slate-600">
          Installed version<span className="sr-only"> of {entry.slug}</span>
        </label>
        <input
          type="text"
          inputMode="decimal"
          maxLength={100}
          {...form.inputProps("version")}
          className={`${INPUT_CLASS} font-mono`}
        />
      </div>
      <button
        type="submit"
        className="btn-secondary"
        disabled={busy || values.version.trim() === entry.version}
      >
        {busy ? "Saving…" : "Save"}
        <span className="sr-only"> version of {entry.slug}</span>
      </button>
      {errors.version && (
        <p id={errorIdFor(id)} className="basis-full text-sm text-red-700">
          {errors.version.join(" ")}
        </p>
      )}
    </form>
  );
}

/** One watched product: its installed version, what affects it and what to do. */
export function EntryItem({
  entry,
  onVersion,
}: {
  entry: WatchlistEntry;
  onVersion: (version: string) => Promise<void>;
}) {
  const name = entry.kind === "core" ? "WordPress" : entry.slug;
  const count = entry.vulnerabilities.length;
  const exposed = count > 0;
  const vulnerabilities = byUrgency(entry.vulnerabilities);
  return (
    <li
      className={`rounded-lg border bg-white p-4 shadow-sm ${exposed ? "border-red-300" : "border-slate-200"}`}
      data-testid="watchlist-entry"
      data-slug={entry.slug}
    >
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
        <h3 className="min-w-0 font-semibold break-all text-slate-900">
          {entry.product_url ? (
            <Link to={pathOf(entry.product_url)} className="link">
              {name}
            </Link>
          ) : (
            name
          )}{" "}
          <span className="text-sm font-normal text-slate-500">{KIND_LABELS[entry.kind] ?? entry.kind}</span>
        </h3>
        <VersionForm key={entry.version} entry={entry} onSave={onVersion} />
      </div>
      {exposed ? (
        <>
          <p className="mt-2 text-sm text-red-800" data-testid="entry-exposure">
            {count === 1 ? "1 known vulnerability" : `${count} known vulnerabilities`} in {entry.version}.{" "}
            <strong>{adviceOf(entry)}</strong>
          </p>
          <VulnerabilityList vulnerabilities={vulnerabilities} />
        </>
      ) : (
        <p className="mt-2 text-sm text-slate-700" data-testid="entry-exposure">
          {entry.known
            ? `No known vulnerability in ${entry.version}.`
            : "Not in the database (nothing known, which does not mean it is safe)."}
        </p>
      )}
    </li>
  );
}
