import type { ProgramInput } from "@pressguard/domain";
import { useQuery } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import {
  FETCH_FAILURES,
  programFieldsQuery,
  programQuery,
  programsApi,
} from "../../features/programs/api.ts";
import { PolicyEditor } from "../../features/programs/policy-form.tsx";
import { requireOwnProgram } from "../../features/programs/program.server.ts";
import { ProgramForm, programFormValues } from "../../features/programs/program-form.tsx";
import { useProgramListChanged } from "../../features/programs/use-program-mutations.ts";
import { useApiClient } from "../../lib/api/client.ts";
import { enforceGuards } from "../../lib/guards.server.ts";
import type { RouteHandle } from "../../lib/route-handle.ts";
import { requireNumericId } from "../../lib/route-params.ts";
import { pageMeta } from "../../lib/seo.ts";
import { Link } from "../../ui/link.tsx";
import { LoadThenEdit } from "../../ui/load-then-edit.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import { toast } from "../../ui/toast.ts";
import type { Route } from "./+types/program-edit";

export const handle: RouteHandle = { guards: ["auth-vendor"] };

export async function loader({ params, request, context }: Route.LoaderArgs) {
  // Spec §2: a non-numeric id is "Page not found" for everyone, before any guard.
  const id = requireNumericId(params.id);
  await enforceGuards(handle, { request, context });
  await requireOwnProgram({ request, context }, id);
  return { id };
}

export const meta = pageMeta(
  ({ params }) => `Edit program #${params.id}`,
  "Edit a program's software details, disclosure policy, point of contact and support period.",
);

export default function ProgramEditPage({ loaderData }: Route.ComponentProps) {
  const { id } = loaderData;
  const client = useApiClient();
  const navigate = useNavigate();
  const changed = useProgramListChanged();
  const fields = useQuery(programFieldsQuery(client, id));
  // The cached program (if any) tells whether it is active: its kind and slug are then fixed.
  const program = useQuery(programQuery(client, id));

  async function save(values: ProgramInput) {
    await programsApi.updateProgram(client, id, values);
    await changed();
    toast.success("Your changes are saved.");
    navigate(`/vdp/programs/${id}`);
  }

  return (
    <>
      <PageHeader
        eyebrow={
          <Link to={`/vdp/programs/${id}`} className="hover:underline">
            {program.data?.name ?? "Program"}
          </Link>
        }
        title={`Edit program #${id}`}
        lead="Change the software name, its URLs, the slug, the description and the contact e-mail; below, the disclosure policy, the single point of contact and the support period."
      />
      <div className="max-w-3xl rounded-lg border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <LoadThenEdit record={fields} failure={FETCH_FAILURES.product}>
          {(loaded) => (
            <ProgramForm
              initialValues={programFormValues(loaded)}
              submitLabel="Save changes"
              onSubmit={save}
              lockKindAndSlug={program.data?.is_active === true}
              idPrefix="edit-program"
              footer={
                <Link to={`/vdp/programs/${id}`} className="btn-secondary">
                  Cancel
                </Link>
              }
            />
          )}
        </LoadThenEdit>
      </div>
      <PolicyEditor id={id} />
    </>
  );
}
