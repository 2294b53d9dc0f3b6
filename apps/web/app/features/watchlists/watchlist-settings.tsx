import {
  WATCH_ALERT_MODES,
  type WatchAlertMode,
  WatchlistCreation,
  type WatchlistDetail,
  WatchlistUpdate,
} from "@pressguard/domain";
import { useState } from "react";
import { messageOf } from "../../lib/errors.ts";
import { apiErrorAtField, FORM_ERROR_KEY } from "../../lib/form-errors.ts";
import { errorIdFor, FormAlert, FormField } from "../../ui/form-field.tsx";
import { toast } from "../../ui/toast.ts";
import { useSchemaForm } from "../../ui/use-schema-form.ts";
import { ALERT_MODE_LABELS } from "./inventory.ts";

const ALERT_MODE_HINTS: Record<WatchAlertMode, string> = {
  immediate: "An e-mail as soon as a new vulnerability affects an installed version.",
  daily: "One e-mail a day with the new alerts.",
  off: "No e-mail. This page still shows the exposures.",
};

const RENAME_FIELDS = ["name"] as const;
const Rename = WatchlistCreation.pick({ name: true });

/** Renames the watchlist. */
export function RenameForm({
  watchlist,
  onRename,
}: {
  watchlist: WatchlistDetail;
  onRename: (name: string) => Promise<unknown>;
}) {
  const form = useSchemaForm({
    schema: Rename,
    fields: RENAME_FIELDS,
    initialValues: { name: watchlist.name },
    idPrefix: "watchlist",
    idOf: () => "watchlist-rename",
    async onSubmit({ name }) {
      await onRename(name);
      toast.success("Watchlist renamed.");
    },
    errorsOf: (error) => apiErrorAtField(error, "name"),
  });
  const { values, errors, busy } = form;

  return (
    <form method="post" onSubmit={form.handleSubmit} noValidate className="flex flex-wrap items-end gap-3">
      <div className="min-w-0 flex-1 sm:max-w-md">
        <FormField label="Name" htmlFor={form.idOf("name")} errors={errors.name}>
          <input type="text" maxLength={100} {...form.inputProps("name")} />
        </FormField>
      </div>
      <button
        type="submit"
        className="btn-secondary"
        disabled={busy || values.name.trim() === watchlist.name}
      >
        Rename
      </button>
    </form>
  );
}

const ALERT_MODE_FIELDS = ["alert_mode"] as const;

/** How the watchlist's alerts are sent (decision 031): at once, as a daily digest, or not. */
export function AlertModeForm({
  watchlist,
  onChange,
}: {
  watchlist: WatchlistDetail;
  onChange: (mode: WatchAlertMode) => Promise<unknown>;
}) {
  const form = useSchemaForm({
    schema: WatchlistUpdate,
    fields: ALERT_MODE_FIELDS,
    initialValues: { alert_mode: watchlist.alert_mode },
    idPrefix: "watchlist",
    // A choice of radios: the focus goes to the one checked.
    focusTarget: () => document.querySelector<HTMLElement>('input[name="alert-mode"]:checked'),
    async onSubmit(_data, values) {
      await onChange(values.alert_mode);
      toast.success("Alert setting saved.");
    },
  });
  const { values, errors, busy } = form;
  const errorId = errorIdFor(form.idOf("alert_mode"));

  return (
    <form method="post" onSubmit={form.handleSubmit} noValidate className="space-y-3">
      <fieldset aria-describedby={errors.alert_mode ? errorId : undefined}>
        <legend className="text-sm font-medium text-slate-700">E-mail alerts</legend>
        <div className="mt-2 space-y-2">
          {WATCH_ALERT_MODES.map((value) => (
            <label key={value} className="flex items-start gap-2 text-sm text-slate-800">
              <input
                type="radio"
                name="alert-mode"
                value={value}
                checked={values.alert_mode === value}
                onChange={() => form.set("alert_mode", value)}
                className="mt-1"
              />
              <span>
                <span className="font-medium">{ALERT_MODE_LABELS[value]}</span>
                <span className="block text-slate-600">{ALERT_MODE_HINTS[value]}</span>
              </span>
            </label>
          ))}
        </div>
        {errors.alert_mode && (
          <p id={errorId} className="mt-1 text-sm text-red-700">
            {errors.alert_mode.join(" ")}
          </p>
        )}
      </fieldset>
      <FormAlert messages={errors[FORM_ERROR_KEY]} />
      <button
        type="submit"
        className="btn-secondary"
        disabled={busy || values.alert_mode === watchlist.alert_mode}
      >
        Save alert setting
      </button>
    </form>
  );
}

/** Deletes the watchlist after a second, explicit click. */
export function DeleteWatchlist({
  watchlist,
  onDelete,
}: {
  watchlist: WatchlistDetail;
  onDelete: () => Promise<unknown>;
}) {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function remove() {
    setError(null);
    setBusy(true);
    try {
      await onDelete();
    } catch (caught) {
      setError(messageOf(caught));
      setBusy(false);
    }
  }

  if (!confirming)
    return (
      <button type="button" className="btn-secondary text-red-800" onClick={() => setConfirming(true)}>
        Delete watchlist
      </button>
    );
  return (
    <div
      role="alertdialog"
      aria-labelledby="delete-watchlist-question"
      className="space-y-3 rounded-md border border-red-200 bg-red-50 p-4"
    >
      <p id="delete-watchlist-question" className="text-sm text-red-900">
        Delete “<span className="break-all">{watchlist.name}</span>” and its {watchlist.entries}{" "}
        {watchlist.entries === 1 ? "entry" : "entries"}? Its alerts stop. This cannot be undone.
      </p>
      <FormAlert messages={error ? [error] : undefined} />
      <div className="flex flex-wrap gap-3">
        <button
          type="button"
          className="btn-primary bg-red-700 hover:bg-red-800"
          onClick={() => void remove()}
          disabled={busy}
        >
          {busy ? "Deleting…" : "Yes, delete it"}
        </button>
        <button type="button" className="btn-secondary" onClick={() => setConfirming(false)} disabled={busy}>
          Cancel
        </button>
      </div>
    </div>
  );
}
