import { WatchlistEntriesReplacement, type WatchlistEntryInput } from "@pressguard/domain";
import { useState } from "react";
import { FORM_ERROR_KEY } from "../../lib/form-errors.ts";
import { FormAlert } from "../../ui/form-field.tsx";
import { toast } from "../../ui/toast.ts";
import { useSchemaForm } from "../../ui/use-schema-form.ts";
import { EMPTY_INVENTORY, inventoryFieldOf } from "./inventory.ts";
import { InventoryFields, InventoryProblems } from "./inventory-fields.tsx";
import { readInventoryValues } from "./inventory-reading.ts";

const FIELDS = ["inventory", "wordpress"] as const;

/** A fresh inventory of the site: it replaces every entry (a plugin removed from the site goes too). */
export function ReuploadForm({
  onReplace,
}: {
  onReplace: (entries: WatchlistEntryInput[]) => Promise<unknown>;
}) {
  const [problems, setProblems] = useState<string[]>([]);
  const form = useSchemaForm({
    schema: WatchlistEntriesReplacement,
    fields: FIELDS,
    initialValues: EMPTY_INVENTORY,
    idPrefix: "watchlist-reupload",
    toInput: (values) => {
      const reading = readInventoryValues(values);
      return { entries: reading.ok ? reading.entries : [] };
    },
    check: (values) => {
      const reading = readInventoryValues(values);
      return reading.ok ? {} : reading.errors;
    },
    async onSubmit(data, values) {
      await onReplace(data.entries);
      const reading = readInventoryValues(values);
      setProblems(reading.ok ? reading.problems : []);
      form.set("inventory", "");
      toast.success(`Entries replaced: ${data.entries.length} now watched.`);
    },
    fieldOf: inventoryFieldOf,
  });

  return (
    <form
      method="post"
      onSubmit={form.handleSubmit}
      noValidate
      className="space-y-4"
      aria-label="Upload a new inventory"
    >
      <InventoryFields
        idPrefix="watchlist-reupload"
        field={form.inputProps}
        errors={form.errors}
        onFileRead={(text) => form.set("inventory", text)}
      />
      <InventoryProblems problems={problems} />
      <FormAlert messages={form.errors[FORM_ERROR_KEY]} />
      <button type="submit" className="btn-primary" disabled={form.busy}>
        {form.busy ? "Replacing…" : "Replace entries"}
      </button>
    </form>
  );
}
