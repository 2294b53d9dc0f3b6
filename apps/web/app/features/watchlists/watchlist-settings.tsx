import {
  WATCH_ALERT_MODES,
  type WatchAlertMode,
  WatchlistCreation,
  type WatchlistDetail,
} from "@pressguard/domain";
import { type FormEvent, useState } from "react";
import { toast } from "react-toastify";
import { messageOf } from "../../lib/errors.ts";
import { FormAlert, FormField, INPUT_CLASS } from "../../ui/form-field.tsx";
import { ALERT_MODE_LABELS } from "./inventory.ts";

const ALERT_MODE_HINTS: Record<WatchAlertMode, string> = {
  immediate: "An e-mail as soon as a new vulnerability affects an installed version.",
  daily: "One e-mail a day with the new alerts.",
  off: "No e-mail. This page still shows the exposures.",
};

/** Renames the watchlist. */
export function RenameForm({
  watchlist,
  onRename,
}: {
  watchlist: WatchlistDetail;
  onRename: (name: string) => Promise<unknown>;
}) {
  const [name, setName] = useState(watchlist.name);
  const [errors, setErrors] = useState<string[] | undefined>();
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const checked = WatchlistCreation.shape.name.safeParse(name);
    if (!checked.success) {
      setErrors(checked.error.issues.map((issue) => issue.message));
      return;
    }
    setErrors(undefined);
    setBusy(true);
    try {
      await onRename(checked.data);
      toast.success("Watchlist renamed.");
    } catch (error) {
      setErrors([messageOf(error)]);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      method="post"
      onSubmit={(event) => void submit(event)}
      noValidate
      className="flex flex-wrap items-end gap-3"
    >
      <div className="min-w-0 flex-1 sm:max-w-md">
        <FormField label="Name" htmlFor="watchlist-rename" errors={errors}>
          <input
            id="watchlist-rename"
            type="text"
            maxLength={100}
            value={name}
            onChange={(event) => setName(event.target.value)}
            className={INPUT_CLASS}
            aria-invalid={errors ? true : undefined}
            aria-describedby={errors ? "watchlist-rename-error" : undefined}
          />
        </FormField>
      </div>
      <button type="submit" className="btn-secondary" disabled={busy || name.trim() === watchlist.name}>
        Rename
      </button>
    </form>
  );
}

/** How the watchlist's alerts are sent (decision 031): at once, as a daily digest, or not. */
export function AlertModeForm({
  watchlist,
  onChange,
}: {
  watchlist: WatchlistDetail;
  onChange: (mode: WatchAlertMode) => Promise<unknown>;
}) {
  const [mode, setMode] = useState<WatchAlertMode>(watchlist.alert_mode);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    setBusy(true);
    try {
      await onChange(mode);
      toast.success("Alert setting saved.");
    } catch (caught) {
      setError(messageOf(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form method="post" onSubmit={(event) => void submit(event)} className="space-y-3">
      <fieldset>
        <legend className="text-sm font-medium text-slate-700">E-mail alerts</legend>
        <div className="mt-2 space-y-2">
          {WATCH_ALERT_MODES.map((value) => (
            <label key={value} className="flex items-start gap-2 text-sm text-slate-800">
              <input
                type="radio"
                name="alert-mode"
                value={value}
                checked={mode === value}
                onChange={() => setMode(value)}
                className="mt-1"
              />
              <span>
                <span className="font-medium">{ALERT_MODE_LABELS[value]}</span>
                <span className="block text-slate-600">{ALERT_MODE_HINTS[value]}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <FormAlert messages={error ? [error] : undefined} />
      <button type="submit" className="btn-secondary" disabled={busy || mode === watchlist.alert_mode}>
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
