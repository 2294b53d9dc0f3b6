import { type WatchlistEntry, WatchlistEntryInput } from "@pressguard/domain";
import { type FormEvent, useState } from "react";
import { Link } from "react-router";
import { byUrgency, VulnerabilityList } from "../../components/checked-vulnerability.tsx";
import { messageOf } from "../../lib/errors.ts";
import { INPUT_CLASS } from "../../ui/form-field.tsx";

const KIND_LABELS: Record<string, string> = { plugin: "Plugin", theme: "Theme", core: "WordPress core" };

/** The product's page on this site (the API gives its absolute address). */
const pathOf = (url: string) => {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
};

const versionRule = WatchlistEntryInput.shape.version;
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

/** The installed version, changed in place: the page then reads the entry's exposures again. */
function VersionForm({
  entry,
  onSave,
}: {
  entry: WatchlistEntry;
  onSave: (version: string) => Promise<void>;
}) {
  const [version, setVersion] = useState(entry.version);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = `entry-${entry.kind}-${entry.slug}-version`;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const checked = versionRule.safeParse(version);
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? "Enter a version number such as 5.8.1.");
      return;
    }
    setError(null);
    setBusy(true);
    try {
      await onSave(checked.data);
    } catch (caught) {
      setError(messageOf(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      method="post"
      onSubmit={(event) => void submit(event)}
      noValidate
      className="flex flex-wrap items-end gap-2"
    >
      <div className="w-36">
        <label htmlFor={id} className="block text-xs text-slate-600">
          Installed version<span className="sr-only"> of {entry.slug}</span>
        </label>
        <input
          id={id}
          type="text"
          inputMode="decimal"
          maxLength={100}
          value={version}
          onChange={(event) => setVersion(event.target.value)}
          className={`${INPUT_CLASS} font-mono`}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />
      </div>
      <button type="submit" className="btn-secondary" disabled={busy || version.trim() === entry.version}>
        {busy ? "Saving…" : "Save"}
        <span className="sr-only"> version of {entry.slug}</span>
      </button>
      {error && (
        <p id={`${id}-error`} className="basis-full text-sm text-red-700">
          {error}
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
