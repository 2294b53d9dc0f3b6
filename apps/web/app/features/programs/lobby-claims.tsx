import { type LobbyProduct, LobbyQuery } from "@pressguard/domain";
import { useInfiniteQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useApiClient } from "../../lib/api/client.ts";
import { errorIdFor, LoadError } from "../../ui/form-field.tsx";
import { LoadMoreButton } from "../../ui/load-more-table.tsx";
import { useSchemaForm } from "../../ui/use-schema-form.ts";
import { FETCH_FAILURES, lobbyQuery } from "./api.ts";
import { kindLabel } from "./labels.tsx";
import { useActivateProgram } from "./use-program-mutations.ts";

const SEARCH_FIELDS = ["q"] as const;
const LobbySearch = LobbyQuery.pick({ q: true });

/**
 * Claiming a product the public database already lists with no vendor (PRODUCT.md §4, decision 006):
 * without a search, the products whose URL matches the vendor's domains; with one, any unclaimed
 * product by name or slug. A claim is immediate when the domain matches, otherwise staff review it.
 */
export function LobbyClaims() {
  const client = useApiClient();
  const [q, setQ] = useState("");
  const search = useSchemaForm({
    schema: LobbySearch,
    fields: SEARCH_FIELDS,
    initialValues: { q: "" },
    idPrefix: "lobby",
    onSubmit: (data) => setQ(data.q ?? ""),
  });
  const lobby = useInfiniteQuery(lobbyQuery(client, q));
  const products = lobby.data?.pages.flatMap((page) => page.data) ?? [];

  return (
    <div className="space-y-4">
      <form
        method="get"
        aria-label="Search the database"
        onSubmit={search.handleSubmit}
        noValidate
        className="flex max-w-xl gap-3"
      >
        <label htmlFor={search.idOf("q")} className="sr-only">
          Search unclaimed products by name or slug
        </label>
        <input
          type="search"
          placeholder="Product name or slug"
          maxLength={200}
          {...search.inputProps("q")}
          className="block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm"
        />
        <button type="submit" className="btn-secondary">
          Search
        </button>
      </form>
      {search.errors.q && (
        <p id={errorIdFor(search.idOf("q"))} className="text-sm text-red-700">
          {search.errors.q.join(" ")}
        </p>
      )}
      {lobby.isError ? (
        <LoadError message={FETCH_FAILURES.products} />
      ) : !lobby.data ? (
        <p className="text-sm text-slate-600">Loading…</p>
      ) : products.length === 0 ? (
        <p className="rounded-md border border-slate-200 bg-slate-50 p-4 text-sm text-slate-600">
          {q
            ? "No unclaimed product matches this search."
            : "No product in the database matches your website or e-mail domain. Search by name or slug to claim one; staff check claims from other domains."}
        </p>
      ) : (
        <ul
          aria-label="Products to claim"
          className="divide-y divide-slate-200 rounded-lg border border-slate-200"
        >
          {products.map((product) => (
            <LobbyRow key={product.id} product={product} />
          ))}
        </ul>
      )}
      <LoadMoreButton list={lobby} className="btn-secondary" />
    </div>
  );
}

function LobbyRow({ product }: { product: LobbyProduct }) {
  const claim = useActivateProgram();
  const [underReview, setUnderReview] = useState(product.claim_status === "pending");
  async function claimProduct() {
    const result = await claim.mutateAsync({ id: product.id, isLobbyProduct: true }).catch(() => null);
    if (result?.status === "pending") setUnderReview(true);
  }
  return (
    <li className="flex flex-col gap-3 px-4 py-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="font-medium break-words text-slate-900">{product.name}</p>
        <p className="text-sm break-all text-slate-500">
          {kindLabel(product.kind)} · {product.slug}
          {product.author && ` · by ${product.author}`}
          {product.vulnerabilities > 0 &&
            ` · ${product.vulnerabilities} known ${product.vulnerabilities === 1 ? "vulnerability" : "vulnerabilities"}`}
        </p>
        {product.domain_match && (
          <p className="mt-1 text-xs font-medium text-lime-800">
            Matches your domain: the claim is immediate.
          </p>
        )}
        {product.claim_status === "rejected" && !underReview && (
          <p className="mt-1 text-xs font-medium text-red-700">An earlier claim was rejected.</p>
        )}
      </div>
      {underReview ? (
        <span className="shrink-0 rounded-full bg-amber-100 px-3 py-1 text-xs font-semibold text-amber-900">
          Claim under review
        </span>
      ) : (
        <button
          type="button"
          className="btn-primary shrink-0"
          disabled={claim.isPending}
          onClick={() => void claimProduct()}
          aria-label={`Claim ${product.name}`}
        >
          {claim.isPending ? "Claiming…" : "Claim"}
        </button>
      )}
    </li>
  );
}
