import { Form, useLocation } from "react-router";
import { databaseApi } from "../../features/database/api.server.ts";
import { PaginationNav } from "../../features/database/pagination-nav.tsx";
import { databasePaths } from "../../features/database/paths.ts";
import { searchWithPage } from "../../features/database/search-params.ts";
import { STATIC_PAGE } from "../../lib/route-handle.ts";
import { pageMeta } from "../../lib/seo.ts";
import { Link } from "../../ui/link.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import type { Route } from "./+types/vdp-directory";

/** A reading page: sent without JavaScript (decision 007). */
export const handle = STATIC_PAGE;

export async function loader({ request, context }: Route.LoaderArgs) {
  const search = new URL(request.url).searchParams;
  const q = search.get("q")?.trim().slice(0, 200) || undefined;
  const pageParam = search.get("page") ?? "";
  const page = /^\d{1,6}$/.test(pageParam) && Number(pageParam) >= 1 ? Number(pageParam) : 1;
  const programs = await databaseApi.findActivePrograms({ request, context }, q, page);
  return { q: q ?? "", programs };
}

export const meta = pageMeta(
  "Active VDP directory",
  "WordPress plugin and theme vendors that run an active vulnerability disclosure program.",
);

export default function VdpDirectoryPage({ loaderData }: Route.ComponentProps) {
  const { q, programs } = loaderData;
  const location = useLocation();
  const search = new URLSearchParams(location.search);
  return (
    <>
      <PageHeader
        eyebrow="Public database"
        title="Active VDP directory"
        lead="Plugin and theme vendors that run an active vulnerability disclosure program: a report to one of them reaches their security team directly, and findings earn double points."
      />
      <Form method="get" role="search" className="mb-6 flex max-w-xl gap-3">
        <label htmlFor="program-q" className="sr-only">
          Search programs by product name or slug
        </label>
        <input
          id="program-q"
          name="q"
          type="search"
          defaultValue={q}
          placeholder="Product name or slug"
          maxLength={200}
          className="block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm"
        />
        <button type="submit" className="btn-primary">
          Search
        </button>
      </Form>
      {programs.data.length === 0 ? (
        <p className="rounded-lg border border-slate-200 bg-white p-6 text-slate-600">
          {q ? "No active program matches this search." : "No vendor runs an active program yet."}
        </p>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white shadow-sm">
          {programs.data.map((program) => (
            <li key={program.id} className="flex items-center justify-between gap-4 p-4">
              <Link
                to={databasePaths.product(program)}
                className="font-semibold text-slate-900 hover:underline"
              >
                {program.name}
              </Link>
              <span className="text-sm text-slate-600">
                {program.kind} · {program.vulnerabilities} known{" "}
                {program.vulnerabilities === 1 ? "vulnerability" : "vulnerabilities"}
              </span>
            </li>
          ))}
        </ul>
      )}
      <PaginationNav
        pagination={programs.pagination}
        hrefFor={(page) => `${location.pathname}${searchWithPage(search, page)}`}
      />
    </>
  );
}
