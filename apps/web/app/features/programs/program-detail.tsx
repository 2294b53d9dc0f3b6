import type { ProgramDetail } from "@pressguard/domain";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { useApiClient } from "../../lib/api/client.ts";
import { formatDay } from "../../lib/dates.ts";
import { LoadError } from "../../ui/form-field.tsx";
import { Link } from "../../ui/link.tsx";
import { LoadMoreButton } from "../../ui/load-more-table.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import {
  FETCH_FAILURES,
  programContributorsQuery,
  programQuery,
  programVulnerabilitiesQuery,
} from "./api.ts";
import { Counter, kindLabel, planLabel, StatusBadge } from "./labels.tsx";
import { SecurityFiles } from "./security-files.tsx";
import { useActivateProgram } from "./use-program-mutations.ts";

/** `/vdp/programs/{id}`: the program, its counters, its vulnerabilities and contributors (spec §4). */
export function ProgramDetailPanel({ id }: { id: string }) {
  const client = useApiClient();
  const program = useQuery(programQuery(client, id));
  const fallbackTitle = `Program #${id}`;

  if (program.isError || !program.data) {
    return (
      <>
        <PageHeader eyebrow={<Link to="/vdp/programs/all">Programs</Link>} title={fallbackTitle} />
        {program.isError ? (
          <LoadError message={FETCH_FAILURES.product} />
        ) : (
          <p className="text-slate-600" aria-busy="true">
            Loading the program…
          </p>
        )}
      </>
    );
  }
  return <ProgramView program={program.data} />;
}

function ProgramView({ program }: { program: ProgramDetail }) {
  const activate = useActivateProgram();
  return (
    <>
      <PageHeader
        eyebrow={
          <>
            <Link to="/vdp/programs/all" className="hover:underline">
              Programs
            </Link>{" "}
            · Program #{program.id}
          </>
        }
        title={program.name}
        lead={
          <span className="flex flex-wrap items-center gap-x-3 gap-y-1 text-base">
            <StatusBadge active={program.is_active} />
            <span>{kindLabel(program.kind)}</span>
            <span className="font-mono text-sm break-all">{program.slug}</span>
            {program.version && <span>version {program.version}</span>}
            <span>{planLabel(program.plan)} plan</span>
          </span>
        }
        actions={
          <>
            <Link to={`/vdp/programs/${program.id}/edit`} className="btn-secondary">
              Edit
            </Link>
            {program.is_active ? (
              <Link to={program.public_path} className="btn-primary">
                Security policy
              </Link>
            ) : (
              <button
                type="button"
                className="btn-primary"
                disabled={activate.isPending}
                onClick={() => activate.mutate({ id: program.id, isLobbyProduct: false })}
              >
                {activate.isPending ? "Activating…" : "Activate program"}
              </button>
            )}
          </>
        }
      />
      {!program.is_active && (
        <p className="mb-6 rounded-md border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          This program is pending: researchers cannot report through it yet. Activate it to publish its
          security policy and receive reports, with {program.fix_deadline_days} days to fix each one.
        </p>
      )}
      <dl aria-label="Report counters" className="mb-8 grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Counter label="Reports" value={program.counters.reports} />
        <Counter label="Open" value={program.counters.open} />
        <Counter label="Fixed" value={program.counters.fixed} />
        <Counter label="Fixed on time" value={program.counters.fixedOnTime} />
      </dl>
      <div className="grid gap-8 lg:grid-cols-3">
        <div className="lg:col-span-2">
          <ProgramVulnerabilities id={String(program.id)} />
        </div>
        <ProgramContributors id={String(program.id)} />
      </div>
      <ProgramFacts program={program} />
      <SecurityFiles program={program} />
    </>
  );
}

function ExternalLink({ href }: { href: string }) {
  return (
    <a href={href} className="link break-all" rel="noopener noreferrer" target="_blank">
      {href}
    </a>
  );
}

function ProgramFacts({ program }: { program: ProgramDetail }) {
  const facts: [string, ReactNode][] = [
    ["Software URL", program.product_url && <ExternalLink href={program.product_url} />],
    ["Website URL", program.vendor_website_url && <ExternalLink href={program.vendor_website_url} />],
    ["Vendor contact e-mail", program.vendor_contact_email],
    ["Dependencies", program.dependencies],
    ["Fix deadline", `${program.fix_deadline_days} days from notification`],
    ["Activated", formatDay(program.activated_at)],
    ["Added", formatDay(program.created_at)],
  ];
  return (
    <section aria-labelledby="program-facts" className="mt-8 rounded-lg border border-slate-200 bg-white p-6">
      <h2 id="program-facts" className="text-lg font-semibold text-slate-900">
        Program details
      </h2>
      {program.description && <p className="mt-2 text-slate-700">{program.description}</p>}
      <dl className="mt-4 grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
        {facts
          .filter(([, value]) => Boolean(value))
          .map(([label, value]) => (
            <div key={label} className="min-w-0">
              <dt className="font-medium text-slate-500">{label}</dt>
              <dd className="break-words text-slate-900">{value}</dd>
            </div>
          ))}
      </dl>
    </section>
  );
}

const VULNERABILITY_TABS = [
  { tab: "present", label: "Present" },
  { tab: "fixed", label: "Fixed" },
] as const;

/** Spec §4: the product's vulnerabilities in two tabs, present and fixed, paged by next_page_url. */
function ProgramVulnerabilities({ id }: { id: string }) {
  const client = useApiClient();
  const [tab, setTab] = useState<"present" | "fixed">("present");
  const list = useInfiniteQuery(programVulnerabilitiesQuery(client, id, tab));
  const items = list.data?.pages.flatMap((page) => page.data) ?? [];
  return (
    <section aria-labelledby="program-vulnerabilities">
      <h2 id="program-vulnerabilities" className="text-lg font-semibold text-slate-900">
        Vulnerabilities
      </h2>
      <div
        role="tablist"
        aria-label="Vulnerabilities"
        className="mt-2 mb-4 flex gap-6 border-b border-slate-200"
      >
        {VULNERABILITY_TABS.map((entry) => (
          <button
            key={entry.tab}
            type="button"
            role="tab"
            aria-selected={tab === entry.tab}
            onClick={() => setTab(entry.tab)}
            className={`-mb-px border-b-2 px-1 py-2 text-sm font-medium ${
              tab === entry.tab
                ? "border-lime-600 text-slate-900"
                : "border-transparent text-slate-600 hover:text-slate-900"
            }`}
          >
            {entry.label}
          </button>
        ))}
      </div>
      <div role="tabpanel">
        {list.isError ? (
          <LoadError message={FETCH_FAILURES.vulnerabilities} />
        ) : !list.data ? (
          <p className="text-sm text-slate-600">Loading…</p>
        ) : items.length === 0 ? (
          <p className="rounded-lg border border-slate-200 bg-white p-4 text-sm text-slate-600">
            {tab === "present"
              ? "No known vulnerability is present in this product."
              : "No fixed vulnerability is recorded for this product."}
          </p>
        ) : (
          <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
            {items.map((item) => (
              <li key={item.id} className="px-4 py-3 text-sm">
                <a href={item.url} className="font-medium text-slate-900 hover:underline">
                  {item.title}
                </a>
                <span className="block text-slate-500">
                  {[
                    item.severity && item.severity.charAt(0).toUpperCase() + item.severity.slice(1),
                    item.affected_versions && `affects ${item.affected_versions}`,
                    item.fixed_in && `fixed in ${item.fixed_in}`,
                  ]
                    .filter(Boolean)
                    .join(" · ")}
                </span>
              </li>
            ))}
          </ul>
        )}
        <LoadMoreButton list={list} />
      </div>
    </section>
  );
}

/** Spec §4: contributors load separately from the product. */
function ProgramContributors({ id }: { id: string }) {
  const client = useApiClient();
  const contributors = useQuery(programContributorsQuery(client, id));
  return (
    <section aria-labelledby="program-contributors">
      <h2 id="program-contributors" className="text-lg font-semibold text-slate-900">
        Contributors
      </h2>
      <div className="mt-3">
        {contributors.isError ? (
          <LoadError message={FETCH_FAILURES.contributors} />
        ) : !contributors.data ? (
          <p className="text-sm text-slate-600">Loading…</p>
        ) : contributors.data.data.length === 0 ? (
          <p className="rounded-lg border border-slate-200 bg-white p-4 text-sm text-slate-600">
            No researcher has been credited for this product yet.
          </p>
        ) : (
          <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
            {contributors.data.data.map((contributor) => (
              <li key={contributor.uuid} className="flex justify-between gap-3 px-4 py-3 text-sm">
                <a href={contributor.url} className="font-medium text-slate-900 hover:underline">
                  {contributor.display_name}
                </a>
                <span className="shrink-0 text-slate-500 tabular-nums">
                  {contributor.vulnerabilities}{" "}
                  {contributor.vulnerabilities === 1 ? "vulnerability" : "vulnerabilities"}
                </span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
