import type { Page, ProgramFilter, VendorProgram } from "@pressguard/domain";
import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { useApiClient } from "../../lib/api/client.ts";
import { useLoaderSeed } from "../../lib/api/loader-seed.ts";
import { LoadError } from "../../ui/form-field.tsx";
import { Link } from "../../ui/link.tsx";
import { LoadMoreButton } from "../../ui/load-more-table.tsx";
import { FETCH_FAILURES, programKeys, programListQuery } from "./api.ts";
import { switchProgramTab } from "./cache.ts";
import { kindLabel, planLabel, StatusBadge } from "./labels.tsx";

const EMPTY_STATES: Record<ProgramFilter, { title: string; text: string }> = {
  "all-active": {
    title: "No active program yet",
    text: "Activate a pending program, or start a new one, to receive reports for your plugins and themes.",
  },
  "open-reports": {
    title: "No open reports",
    text: "None of your programs has a report waiting for you. New reports are announced by e-mail.",
  },
  "vdp-pending": {
    title: "No pending program",
    text: "Start a program for a plugin or theme, claim one from the database or import a CSV file; it waits here until you activate it.",
  },
};

/**
 * One program list tab (spec §4): the vendor's programs for a fixed filter, "Load more" pages on.
 * `firstPage`: the first page as the page's loader read it, the list's start when none was loaded yet.
 */
export function ProgramList({
  filter,
  firstPage,
}: {
  filter: ProgramFilter;
  firstPage: Page<VendorProgram> | null;
}) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  useLoaderSeed(programKeys.list(filter), firstPage && { pages: [firstPage], pageParams: [1] });
  useEffect(() => {
    switchProgramTab(queryClient, filter);
  }, [queryClient, filter]);
  const list = useInfiniteQuery(programListQuery(client, filter));

  if (list.isError) return <LoadError message={FETCH_FAILURES.products} />;
  if (!list.data) {
    return (
      <p className="rounded-lg border border-slate-200 bg-white p-6 text-slate-600" aria-busy="true">
        Loading programs…
      </p>
    );
  }
  const programs = list.data.pages.flatMap((page) => page.data);
  const total = list.data.pages[0]?.pagination.total ?? programs.length;
  if (programs.length === 0) {
    const empty = EMPTY_STATES[filter];
    return (
      <div className="rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center">
        <h2 className="text-lg font-semibold text-slate-900">{empty.title}</h2>
        <p className="mx-auto mt-2 max-w-xl text-slate-600">{empty.text}</p>
        <div className="mt-6 flex flex-wrap justify-center gap-3">
          <Link to="/vdp/start-program" className="btn-primary">
            Start a program
          </Link>
          {filter === "all-active" && (
            <Link to="/vdp/programs/pending" className="btn-secondary">
              Pending programs
            </Link>
          )}
        </div>
      </div>
    );
  }
  return (
    <>
      <p className="mb-3 text-sm text-slate-600">
        Showing {programs.length} of {total} {total === 1 ? "program" : "programs"}
      </p>
      <ul
        aria-label="Programs"
        className="divide-y divide-slate-200 overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm"
      >
        {programs.map((program) => (
          <ProgramRow key={program.id} program={program} />
        ))}
      </ul>
      {list.hasNextPage && (
        <div className="mt-6 flex justify-center">
          <LoadMoreButton list={list} className="btn-secondary" />
        </div>
      )}
      {list.isFetchNextPageError && (
        <div className="mt-4">
          <LoadError message={FETCH_FAILURES.products} />
        </div>
      )}
    </>
  );
}

function ProgramRow({ program }: { program: VendorProgram }) {
  return (
    <li className="relative flex flex-col gap-2 px-4 py-4 hover:bg-slate-50 sm:flex-row sm:items-center sm:gap-6 sm:px-6">
      <div className="min-w-0 flex-1">
        <Link
          to={`/vdp/programs/${program.id}`}
          className="font-semibold break-words text-slate-900 after:absolute after:inset-0 hover:underline"
        >
          {program.name}
        </Link>
        <p className="mt-1 text-sm break-all text-slate-500">
          {kindLabel(program.kind)} · <span className="font-mono">{program.slug}</span>
        </p>
      </div>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm text-slate-600">
        <span className="rounded-full border border-slate-200 px-2.5 py-0.5 text-xs font-medium text-slate-700">
          {planLabel(program.plan)}
        </span>
        <StatusBadge active={program.is_active} />
        <span className="tabular-nums">
          {program.open_reports} open {program.open_reports === 1 ? "report" : "reports"}
        </span>
      </div>
    </li>
  );
}
