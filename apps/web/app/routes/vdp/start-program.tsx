import type { ProgramInput } from "@pressguard/domain";
import type { ReactNode } from "react";
import { useNavigate } from "react-router";
import { programsApi } from "../../features/programs/api.ts";
import { CsvImport } from "../../features/programs/csv-import.tsx";
import { LobbyClaims } from "../../features/programs/lobby-claims.tsx";
import { ProgramForm } from "../../features/programs/program-form.tsx";
import { useProgramListChanged } from "../../features/programs/use-program-mutations.ts";
import { useApiClient } from "../../lib/api/client.ts";
import { guardedLoader } from "../../lib/guards.server.ts";
import type { RouteHandle } from "../../lib/route-handle.ts";
import { pageMeta } from "../../lib/seo.ts";
import { PageHeader } from "../../ui/page-header.tsx";
import { toast } from "../../ui/toast.ts";

export const handle: RouteHandle = { guards: ["auth-vendor"] };

/** Spec §6: the guards named in `handle`, enforced before the page renders. */
export const loader = guardedLoader(handle);
export const meta = pageMeta(
  "Start a program",
  "Start a vulnerability disclosure program for your plugin or theme: claim it from the database, add it, or import a CSV file.",
);

function Step({
  id,
  title,
  lead,
  children,
}: {
  id: string;
  title: string;
  lead: string;
  children: ReactNode;
}) {
  return (
    <section
      aria-labelledby={id}
      className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm sm:p-8"
    >
      <h2 id={id} className="text-xl font-semibold text-slate-900">
        {title}
      </h2>
      <p className="mt-1 mb-6 text-slate-600">{lead}</p>
      {children}
    </section>
  );
}

/** Three ways to add programs: the form, a claim from the database, a CSV import (spec §2, §7). */
export default function StartProgramPage() {
  const client = useApiClient();
  const navigate = useNavigate();
  const changed = useProgramListChanged();

  async function create(program: ProgramInput) {
    const created = await programsApi.createProgram(client, program);
    await changed();
    toast.success(`${created.name} was added. Activate it to start receiving reports.`);
    navigate("/vdp/programs/pending");
  }

  return (
    <>
      <PageHeader
        eyebrow="Programs"
        title="Start a program"
        lead="Add a plugin or theme to run a vulnerability disclosure program for it, one at a time or many at once from a CSV file."
      />
      <div className="space-y-8">
        <Step
          id="claim-heading"
          title="Claim a product from the database"
          lead="Your plugin or theme may already be in the vulnerability database. Claim it to run its program."
        >
          <LobbyClaims />
        </Step>
        <Step
          id="add-heading"
          title="Add a program"
          lead="A new program starts pending; activate it when you are ready to receive reports."
        >
          <ProgramForm submitLabel="Add program" onSubmit={create} suggestSlug idPrefix="new-program" />
        </Step>
        <Step
          id="import-heading"
          title="Import from a CSV file"
          lead="Add many programs at once, for example every plugin you publish."
        >
          <CsvImport />
        </Step>
      </div>
    </>
  );
}
