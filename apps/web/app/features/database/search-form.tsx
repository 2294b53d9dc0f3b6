import { SEVERITIES, VULNERABILITY_TYPES } from "@pressguard/domain";
import { Form } from "react-router";
// The suggestions' script, bundled on its own (decision 007: the page loads no other script).
import suggestScript from "../../islands/search-suggest.ts?worker&url";
import type { SearchParams } from "./search-params.ts";

const FIELD =
  "mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900";
const LABEL = "block text-sm font-medium text-slate-700";

/** The database search: a GET form, so it works without JavaScript and its results have a URL. */
export function SearchForm({ action, params }: { action: string; params: SearchParams }) {
  return (
    <Form
      method="get"
      action={action}
      role="search"
      className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
    >
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="grow">
          <label htmlFor="search-q" className={LABEL}>
            Search a plugin, theme, vulnerability, CVE id or researcher
          </label>
          <div className="relative">
            <input
              id="search-q"
              name="q"
              type="search"
              defaultValue={params.q ?? ""}
              placeholder="e.g. contact form 7, elementor xss, CVE-2024-3552"
              maxLength={200}
              className={FIELD}
              role="combobox"
              aria-autocomplete="list"
              aria-expanded="false"
              aria-controls="search-suggestions"
              autoComplete="off"
              data-suggest=""
              data-suggest-status="search-suggestions-status"
            />
            <div
              id="search-suggestions"
              role="listbox"
              aria-label="Suggested products"
              hidden
              className="absolute z-20 mt-1 max-h-80 w-full overflow-auto rounded-md border border-slate-300 bg-white py-1 shadow-lg"
            />
          </div>
          <p id="search-suggestions-status" aria-live="polite" className="sr-only" />
          <script type="module" src={suggestScript} />
        </div>
        <button type="submit" className="btn-primary">
          Search
        </button>
      </div>
      {/* The two selects with long labels (type, sort) take two columns: a row on a phone, a quarter of one row on a wide screen. */}
      <div className="mt-3 grid grid-cols-2 gap-3 md:grid-cols-4 xl:grid-cols-8">
        <div>
          <label htmlFor="search-kind" className={LABEL}>
            Kind
          </label>
          <select id="search-kind" name="kind" defaultValue={params.kind ?? ""} className={FIELD}>
            <option value="">Any</option>
            <option value="plugin">Plugin</option>
            <option value="theme">Theme</option>
            <option value="core">Core</option>
          </select>
        </div>
        <div>
          <label htmlFor="search-severity" className={LABEL}>
            Severity
          </label>
          <select id="search-severity" name="severity" defaultValue={params.severity ?? ""} className={FIELD}>
            <option value="">Any</option>
            {[...SEVERITIES].reverse().map((severity) => (
              <option key={severity.value} value={severity.value}>
                {severity.label}
              </option>
            ))}
          </select>
        </div>
        <div className="col-span-2">
          <label htmlFor="search-type" className={LABEL}>
            Type
          </label>
          <select id="search-type" name="type" defaultValue={params.type ?? ""} className={FIELD}>
            <option value="">Any</option>
            {VULNERABILITY_TYPES.map((type) => (
              <option key={type.code} value={type.code}>
                {type.label}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="search-patched" className={LABEL}>
            Patched
          </label>
          <select
            id="search-patched"
            name="patched"
            defaultValue={params.patched === undefined ? "" : String(params.patched)}
            className={FIELD}
          >
            <option value="">Any</option>
            <option value="true">Patched</option>
            <option value="false">Not patched</option>
          </select>
        </div>
        <div>
          <label htmlFor="search-year" className={LABEL}>
            Year
          </label>
          <input
            id="search-year"
            name="year"
            type="number"
            min={1990}
            max={2100}
            defaultValue={params.year ?? ""}
            className={FIELD}
          />
        </div>
        <div className="col-span-2">
          <label htmlFor="search-sort" className={LABEL}>
            Sort
          </label>
          <select id="search-sort" name="sort" defaultValue={params.sort ?? ""} className={FIELD}>
            <option value="">Best match</option>
            <option value="date">Newest</option>
            <option value="relevance">Relevance</option>
            <option value="epss">Highest EPSS (exploit likelihood)</option>
          </select>
        </div>
      </div>
      <div className="mt-3 flex items-center gap-2">
        <input
          id="search-known-exploited"
          name="known_exploited"
          type="checkbox"
          value="true"
          defaultChecked={params.known_exploited === true}
          className="h-4 w-4 rounded border-slate-300"
        />
        <label htmlFor="search-known-exploited" className="text-sm font-medium text-slate-700">
          Known exploited only{" "}
          <span className="font-normal text-slate-600">
            (in CISA's Known Exploited Vulnerabilities catalog)
          </span>
        </label>
      </div>
    </Form>
  );
}
