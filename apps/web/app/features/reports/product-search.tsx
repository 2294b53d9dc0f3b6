import type { ProductSearchItem } from "@pressguard/domain";
import { COMPONENT_KINDS, slugify } from "@pressguard/domain";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useId, useState } from "react";
import { useApiClient } from "../../lib/api/client.ts";
import { kindLabel } from "../../lib/report-labels.ts";
import { errorIdFor, FormField, INPUT_CLASS } from "../../ui/form-field.tsx";
import { reportsApi } from "./api.ts";
import type { ProductFieldProps } from "./chosen-product.ts";
import { KnownVulnerabilities } from "./known-vulnerabilities.tsx";

/** Waits `delay` ms after the last change, so that typing does not send a request per key. */
function useDebounced<T>(value: T, delay: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return debounced;
}

/**
 * PRODUCT.md §3: the product is picked by search over the database (`GET /api/v1/products`); one
 * that is not listed is typed in (slug and name) and becomes a lobby product on the server. Once
 * picked, it is shown with its known vulnerabilities.
 */
export function ProductSearch({
  value,
  onChange,
  errors,
  idPrefix,
  initiallyManual = false,
}: ProductFieldProps & { initiallyManual?: boolean }) {
  const client = useApiClient();
  const [manual, setManual] = useState(initiallyManual);
  const [search, setSearch] = useState("");
  const [slugTouched, setSlugTouched] = useState(value.slug !== "");
  const term = useDebounced(search.trim(), 250);
  const resultsId = useId();
  const id = (field: string) => `${idPrefix}-${field}`;
  const chosen = value.slug !== "" && !manual;

  const results = useQuery({
    queryKey: ["report-form", "products", value.kind, term],
    queryFn: ({ signal }) => reportsApi.findProducts(client, term, value.kind, signal),
    enabled: !chosen && !manual && term.length >= 2,
    staleTime: 60_000,
    retry: false,
  });

  const pick = (product: ProductSearchItem) => {
    onChange({
      kind: product.kind,
      slug: product.slug,
      name: product.name,
      id: product.id,
      vulnerabilities: product.vulnerabilities,
    });
    setSearch("");
  };

  const kindSelect = (
    <FormField label="Software kind" htmlFor={id("kind")} errors={errors.kind}>
      <select
        id={id("kind")}
        name="kind"
        value={value.kind}
        className={INPUT_CLASS}
        aria-invalid={errors.kind ? true : undefined}
        aria-describedby={errors.kind ? errorIdFor(id("kind")) : undefined}
        disabled={chosen}
        onChange={(event) => onChange({ ...value, kind: event.target.value, id: undefined })}
      >
        {COMPONENT_KINDS.map((kind) => (
          <option key={kind.value} value={kind.value}>
            {kind.label}
          </option>
        ))}
      </select>
    </FormField>
  );

  if (chosen) {
    return (
      <div className="space-y-4">
        <div className="rounded-lg border border-lime-300 bg-lime-50 p-4">
          <p className="text-xs font-semibold tracking-wide text-lime-900 uppercase">Affected software</p>
          <p className="mt-1 text-lg font-semibold break-words text-slate-900" data-testid="chosen-product">
            {value.name}
          </p>
          <p className="text-sm break-all text-slate-600">
            {kindLabel(value.kind)} · <span className="font-mono">{value.slug}</span>
            {value.id === undefined && " · new to the database"}
          </p>
          <button
            type="button"
            className="btn-secondary mt-3"
            onClick={() => {
              onChange({ kind: value.kind, slug: "", name: "" });
              setSlugTouched(false);
            }}
          >
            Choose another product
          </button>
        </div>
        {value.id !== undefined && (
          <KnownVulnerabilities productId={value.id} product={value} count={value.vulnerabilities} />
        )}
      </div>
    );
  }

  if (manual) {
    return (
      <div className="space-y-4">
        {kindSelect}
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField label="Software name" htmlFor={id("product_name")} errors={errors.product_name}>
            <input
              id={id("product_name")}
              name="product_name"
              type="text"
              autoComplete="off"
              className={INPUT_CLASS}
              value={value.name}
              aria-invalid={errors.product_name ? true : undefined}
              aria-describedby={errors.product_name ? errorIdFor(id("product_name")) : undefined}
              onChange={(event) => {
                const name = event.target.value;
                onChange({ ...value, name, ...(!slugTouched && { slug: slugify(name) }) });
              }}
            />
          </FormField>
          <FormField
            label="Software slug"
            htmlFor={id("product_slug")}
            errors={errors.product_slug}
            hint="As in its WordPress.org address, e.g. my-plugin."
          >
            <input
              id={id("product_slug")}
              name="product_slug"
              type="text"
              autoComplete="off"
              spellCheck={false}
              className={`${INPUT_CLASS} font-mono`}
              value={value.slug}
              aria-invalid={errors.product_slug ? true : undefined}
              aria-describedby={errors.product_slug ? errorIdFor(id("product_slug")) : undefined}
              onChange={(event) => {
                setSlugTouched(true);
                onChange({ ...value, slug: event.target.value });
              }}
            />
          </FormField>
        </div>
        <button
          type="button"
          className="text-sm font-medium text-lime-900 underline underline-offset-4"
          onClick={() => {
            setManual(false);
            onChange({ kind: value.kind, slug: "", name: "" });
          }}
        >
          Search the database instead
        </button>
      </div>
    );
  }

  const products = results.data?.data ?? [];
  // The schema names the slug; in search mode the visitor sees a search box, so say what to do.
  const missing = errors.product_slug ?? errors.product_name;
  const productError = missing && [...missing, "Pick the product from the matches, or type it in."];
  return (
    <div className="space-y-4">
      {kindSelect}
      <FormField
        label="Affected software"
        htmlFor={id("product_search")}
        errors={productError}
        hint="Type two or more letters of its name or slug, then pick it from the list."
      >
        <input
          id={id("product_search")}
          type="search"
          autoComplete="off"
          spellCheck={false}
          className={INPUT_CLASS}
          placeholder="e.g. Contact Form 7"
          value={search}
          aria-controls={resultsId}
          aria-invalid={productError ? true : undefined}
          aria-describedby={productError ? errorIdFor(id("product_search")) : undefined}
          onChange={(event) => setSearch(event.target.value)}
          onKeyDown={(event) => {
            // Enter picks the first match rather than submitting the whole form.
            if (event.key === "Enter") {
              event.preventDefault();
              const first = products[0];
              if (first) pick(first);
            }
          }}
        />
      </FormField>
      <div id={resultsId} aria-live="polite">
        {term.length >= 2 && results.isFetching && products.length === 0 && (
          <p className="text-sm text-slate-600">Searching…</p>
        )}
        {results.isError && (
          <p className="text-sm text-red-700">The search failed. Try again, or type the product in.</p>
        )}
        {term.length >= 2 && results.isSuccess && products.length === 0 && (
          <p className="text-sm text-slate-600">
            No {value.kind} in the database matches “{term}”.
          </p>
        )}
        {products.length > 0 && (
          <ul
            aria-label="Matching products"
            className="divide-y divide-slate-200 overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm"
          >
            {products.map((product) => (
              <li key={product.id}>
                <button
                  type="button"
                  className="flex w-full flex-wrap items-baseline justify-between gap-x-4 gap-y-1 px-4 py-3 text-left hover:bg-slate-50 focus-visible:bg-slate-50"
                  onClick={() => pick(product)}
                >
                  <span className="min-w-0">
                    <span className="block font-medium break-words text-slate-900">{product.name}</span>
                    <span className="block font-mono text-xs break-all text-slate-500">{product.slug}</span>
                  </span>
                  <span className="text-xs text-slate-600">
                    {product.vulnerabilities} known{" "}
                    {product.vulnerabilities === 1 ? "vulnerability" : "vulnerabilities"}
                    {product.is_active && " · VDP"}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
      <p className="text-sm text-slate-600">
        Not listed?{" "}
        <button
          type="button"
          className="font-medium text-lime-900 underline underline-offset-4"
          onClick={() => {
            setManual(true);
            const name = search.trim();
            onChange({ kind: value.kind, name, slug: slugify(name) });
            setSlugTouched(false);
          }}
        >
          Type the product in
        </button>
      </p>
    </div>
  );
}
