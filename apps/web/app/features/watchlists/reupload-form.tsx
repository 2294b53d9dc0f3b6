import type { WatchlistEntryInput } from "@pressguard/domain";
import { type FormEvent, useState } from "react";
import { toast } from "react-toastify";
import { messageOf } from "../../lib/errors.ts";
import { FormAlert } from "../../ui/form-field.tsx";
import { type InventoryInput, readInventory } from "./inventory.ts";
import { InventoryFields, InventoryProblems } from "./inventory-fields.tsx";

/** A fresh inventory of the site: it replaces every entry (a plugin removed from the site goes too). */
export function ReuploadForm({
  onReplace,
}: {
  onReplace: (entries: WatchlistEntryInput[]) => Promise<unknown>;
}) {
  const [inventory, setInventory] = useState<InventoryInput>({ text: "", kind: "plugin", wordpress: "" });
  const [errors, setErrors] = useState<{ inventory?: string[]; wordpress?: string[]; form?: string[] }>({});
  const [problems, setProblems] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const reading = readInventory(inventory);
    if (!reading.ok) {
      setErrors(reading.errors);
      document
        .getElementById(
          reading.errors.inventory ? "watchlist-reupload-inventory" : "watchlist-reupload-wordpress",
        )
        ?.focus();
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      await onReplace(reading.entries);
      setProblems(reading.problems);
      setInventory((current) => ({ ...current, text: "" }));
      toast.success(`Entries replaced: ${reading.entries.length} now watched.`);
    } catch (error) {
      setErrors({ form: [messageOf(error)] });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      method="post"
      onSubmit={(event) => void submit(event)}
      noValidate
      className="space-y-4"
      aria-label="Upload a new inventory"
    >
      <InventoryFields
        idPrefix="watchlist-reupload"
        value={inventory}
        onChange={setInventory}
        errors={errors}
      />
      <InventoryProblems problems={problems} />
      <FormAlert messages={errors.form} />
      <button type="submit" className="btn-primary" disabled={busy}>
        {busy ? "Replacing…" : "Replace entries"}
      </button>
    </form>
  );
}
