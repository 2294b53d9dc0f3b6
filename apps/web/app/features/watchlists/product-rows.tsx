import type { Autocomplete, ComponentKind, WatchlistEntryInput } from "@pressguard/domain";
import { useEffect, useState } from "react";
import { useApiClient } from "../../lib/api/client.ts";
import { INPUT_CLASS } from "../../ui/form-field.tsx";

export type ProductRow = WatchlistEntryInput & { key: number };

let nextKey = 0;
export const emptyRow = (): ProductRow => ({ key: nextKey++, kind: "plugin", slug: "", version: "" });

const KIND_OPTIONS = [
  { value: "plugin", label: "Plugin" },
  { value: "theme", label: "Theme" },
  { value: "core", label: "WordPress core" },
] as const satisfies readonly { value: ComponentKind; label: string }[];

/** The database's products whose name or slug start with what was typed, for the slug box's list. */
function useSuggestions(text: string, kind: string) {
  const client = useApiClient();
  const [slugs, setSlugs] = useState<{ slug: string; name: string }[]>([]);
  useEffect(() => {
    const query = text.trim();
    if (query.length < 2 || kind === "core") return;
    let live = true;
    const timer = setTimeout(() => {
      client
        .request<Autocomplete>(`/v1/autocomplete?${new URLSearchParams({ q: query, kind })}`)
        .then((answer) => {
          if (live) setSlugs(answer.products.map(({ slug, name }) => ({ slug, name })));
        })
        .catch(() => undefined);
    }, 200);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [client, text, kind]);
  return slugs;
}

function Row({
  row,
  index,
  onChange,
  onRemove,
  error,
}: {
  row: ProductRow;
  index: number;
  onChange: (row: ProductRow) => void;
  onRemove: (() => void) | null;
  error: string | undefined;
}) {
  const suggestions = useSuggestions(row.slug, row.kind);
  const id = (field: string) => `watchlist-product-${row.key}-${field}`;
  const label = `Product ${index + 1}`;
  return (
    <li className="rounded-md border border-slate-200 p-3">
      <fieldset>
        <legend className="text-sm font-medium text-slate-700">{label}</legend>
        <div className="mt-2 grid gap-3 sm:grid-cols-[10rem_1fr_8rem_auto] sm:items-end">
          <div>
            <label htmlFor={id("kind")} className="block text-xs text-slate-600">
              Kind
            </label>
            <select
              id={id("kind")}
              className={INPUT_CLASS}
              value={row.kind}
              onChange={(event) => {
                const kind = event.target.value as ProductRow["kind"];
                onChange({ ...row, kind, slug: kind === "core" ? "wordpress" : row.slug });
              }}
            >
              {KIND_OPTIONS.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          </div>
          <div className="min-w-0">
            <label htmlFor={id("slug")} className="block text-xs text-slate-600">
              Slug
            </label>
            <input
              id={id("slug")}
              type="text"
              autoComplete="off"
              list={id("suggestions")}
              placeholder="contact-form-7"
              value={row.slug}
              disabled={row.kind === "core"}
              onChange={(event) => onChange({ ...row, slug: event.target.value })}
              className={INPUT_CLASS}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? id("error") : undefined}
            />
            <datalist id={id("suggestions")}>
              {suggestions.map((suggestion) => (
                <option key={suggestion.slug} value={suggestion.slug}>
                  {suggestion.name}
                </option>
              ))}
            </datalist>
          </div>
          <div>
            <label htmlFor={id("version")} className="block text-xs text-slate-600">
              Installed version
            </label>
            <input
              id={id("version")}
              type="text"
              inputMode="decimal"
              placeholder="5.8.1"
              value={row.version}
              onChange={(event) => onChange({ ...row, version: event.target.value })}
              className={INPUT_CLASS}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? id("error") : undefined}
            />
          </div>
          {onRemove && (
            <button type="button" className="btn-secondary" onClick={onRemove}>
              Remove<span className="sr-only"> {label.toLowerCase()}</span>
            </button>
          )}
        </div>
        {error && (
          <p id={id("error")} className="mt-2 text-sm text-red-700">
            {error}
          </p>
        )}
      </fieldset>
    </li>
  );
}

/** Products picked one by one: kind, slug (suggested from the database) and installed version. */
export function ProductRows({
  rows,
  onChange,
  errorsOf,
}: {
  rows: ProductRow[];
  onChange: (rows: ProductRow[]) => void;
  /** A row's messages, by its index. */
  errorsOf: (index: number) => readonly string[] | undefined;
}) {
  return (
    <div className="space-y-3">
      <ul className="space-y-3">
        {rows.map((row, index) => (
          <Row
            key={row.key}
            row={row}
            index={index}
            error={errorsOf(index)?.join(" ")}
            onChange={(next) => onChange(rows.map((entry) => (entry.key === row.key ? next : entry)))}
            onRemove={rows.length > 1 ? () => onChange(rows.filter((entry) => entry.key !== row.key)) : null}
          />
        ))}
      </ul>
      <button type="button" className="btn-secondary" onClick={() => onChange([...rows, emptyRow()])}>
        Add another product
      </button>
    </div>
  );
}
