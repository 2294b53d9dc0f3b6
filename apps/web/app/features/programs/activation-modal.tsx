import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState } from "react";
import { isActivationModalShown } from "../../lib/activation-modal-flag.ts";
import { useApiClient } from "../../lib/api/client.ts";
import { productDetailsQuery, programListQuery } from "./api.ts";
import { kindLabel } from "./labels.tsx";
import { useActivateProgram } from "./use-program-mutations.ts";

/**
 * Spec §2, §4: the activation modal. A vendor with pending programs and no active one is told what
 * activating does and can activate a pending program here. Its flag lives in localStorage (default
 * shown, hidden after an activation), so it is decided after hydration only.
 */
export function ActivationModal() {
  const client = useApiClient();
  const [flagShown, setFlagShown] = useState(false);
  const [dismissed, setDismissed] = useState(false);
  useEffect(() => setFlagShown(isActivationModalShown()), []);
  const details = useQuery({ ...productDetailsQuery(client), enabled: flagShown });
  const wanted = flagShown && !dismissed && details.data?.active === 0 && (details.data?.pending ?? 0) > 0;
  const pending = useInfiniteQuery({ ...programListQuery(client, "vdp-pending"), enabled: wanted });
  const programs = pending.data?.pages.flatMap((page) => page.data).filter((program) => !program.is_active);
  const activate = useActivateProgram();
  const [selected, setSelected] = useState<number | null>(null);
  const titleId = useId();
  const dialog = useRef<HTMLDivElement>(null);

  const open = wanted && programs !== undefined && programs.length > 0;
  useEffect(() => {
    if (!open) return;
    dialog.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") setDismissed(true);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open]);
  if (!open) return null;

  const chosen = selected ?? programs[0]?.id ?? null;
  async function activateChosen() {
    if (chosen === null) return;
    const result = await activate.mutateAsync({ id: chosen, isLobbyProduct: false }).catch(() => null);
    if (result?.status === "success") setFlagShown(false);
  }

  return (
    <div className="fixed inset-0 z-40 flex items-end justify-center bg-slate-950/50 p-4 sm:items-center">
      <div
        ref={dialog}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className="w-full max-w-lg rounded-xl bg-white p-6 shadow-xl focus:outline-none sm:p-8"
      >
        <h2 id={titleId} className="text-xl font-semibold text-slate-900">
          Activate your disclosure program
        </h2>
        <p className="mt-3 text-slate-600">
          A pending program is not public yet. Activating it lists the product in the Active VDP directory,
          publishes its security policy, and sends you the reports researchers submit for it, with a deadline
          to fix them.
        </p>
        <fieldset className="mt-5">
          <legend className="text-sm font-medium text-slate-700">Program to activate</legend>
          <ul className="mt-2 max-h-60 space-y-2 overflow-y-auto">
            {programs.map((program) => (
              <li key={program.id}>
                <label className="flex cursor-pointer items-center gap-3 rounded-md border border-slate-200 px-3 py-2 text-sm has-checked:border-slate-900">
                  <input
                    type="radio"
                    name="activate-program"
                    value={program.id}
                    checked={chosen === program.id}
                    onChange={() => setSelected(program.id)}
                  />
                  <span className="min-w-0">
                    <span className="block font-medium break-words text-slate-900">{program.name}</span>
                    <span className="block text-slate-500">
                      {kindLabel(program.kind)} · {program.slug}
                    </span>
                  </span>
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
        <div className="mt-6 flex flex-wrap justify-end gap-3">
          <button type="button" className="btn-secondary" onClick={() => setDismissed(true)}>
            Not now
          </button>
          <button
            type="button"
            className="btn-primary"
            disabled={activate.isPending || chosen === null}
            onClick={() => void activateChosen()}
          >
            {activate.isPending ? "Activating…" : "Activate program"}
          </button>
        </div>
      </div>
    </div>
  );
}
