import { useState } from "react";
import { useRootLoaderData } from "../../lib/public-config.ts";
import {
  homePathFor,
  RESEARCHER_SETUP_PATH,
  researcherReportsPath,
  type SessionUser,
} from "../../lib/session-user.ts";
import { useAuth } from "../../lib/use-auth.ts";
import { errorMessageOf, FormError } from "./form-fields.tsx";

const OFFERS = {
  researcher: {
    title: "Report vulnerabilities too",
    text: "Add a researcher profile to this account to submit reports and be credited for them.",
    action: "Add a researcher profile",
  },
  vendor: {
    title: "Run a disclosure program too",
    text: "Add a vendor organisation to this account to receive reports for your plugins and themes.",
    action: "Add a vendor organisation",
  },
} as const;

/** A user may add the role they do not have yet (issue: "a user may later add the other role"). */
export function AddRole() {
  const user = useRootLoaderData()?.user;
  const { api } = useAuth();
  const [error, setError] = useState<string | null>(null);
  if (!user) return null;
  const missing = (["researcher", "vendor"] as const).find((role) => !user.roles.includes(role));
  if (!missing) return null;
  const offer = OFFERS[missing];

  async function add() {
    setError(null);
    try {
      const updated = await api.request<SessionUser>("/user/roles", {
        method: "POST",
        body: { role: missing },
      });
      // The new role's set-up first (issue 19), then its start page: the root redirect's rules,
      // with the new role taking the lead for a researcher (the root prefers the vendor area).
      const researcher = missing === "researcher" ? updated.researcher : null;
      window.location.assign(
        researcher?.profile_completed
          ? researcherReportsPath(researcher.uuid)
          : researcher
            ? RESEARCHER_SETUP_PATH
            : homePathFor(updated),
      );
    } catch (caught) {
      setError(errorMessageOf(caught));
    }
  }

  return (
    <section aria-labelledby="add-role-heading" className="mt-10 space-y-3">
      <h2 id="add-role-heading" className="text-lg font-semibold text-slate-900">
        {offer.title}
      </h2>
      <p className="text-sm text-slate-600">{offer.text}</p>
      <FormError message={error} />
      <button type="button" className="btn-secondary" onClick={() => void add()}>
        {offer.action}
      </button>
    </section>
  );
}
