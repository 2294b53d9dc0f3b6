import { WatchlistCreation, type WatchlistEntryInput } from "@pressguard/domain";
import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useNavigate } from "react-router";
import { useApiClient } from "../../lib/api/client.ts";
import { messageOf } from "../../lib/errors.ts";
import { FormAlert, FormField, INPUT_CLASS } from "../../ui/form-field.tsx";
import { watchlistPath, watchlistsApi, watchlistsKey } from "./api.ts";
import { type InventoryInput, readInventory, readPickedProducts } from "./inventory.ts";
import { InventoryFields } from "./inventory-fields.tsx";
import { emptyRow, type ProductRow, ProductRows } from "./product-rows.tsx";

type Source = "inventory" | "products";

/** What the new watchlist's page shows once: the parser's sentences about the uploaded list. */
export interface CreatedState {
  problems: string[];
}

/**
 * A new watchlist: its name and either a site's inventory (uploaded or pasted) or products picked one
 * by one. Once created, its page opens with the exposures.
 */
export function CreateWatchlistForm() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState("");
  const [source, setSource] = useState<Source>("inventory");
  const [inventory, setInventory] = useState<InventoryInput>({ text: "", kind: "plugin", wordpress: "" });
  const [rows, setRows] = useState<ProductRow[]>(() => [emptyRow()]);
  const [errors, setErrors] = useState<{
    name?: string[];
    inventory?: string[];
    wordpress?: string[];
    rows?: Record<number, string>;
    form?: string[];
  }>({});
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    let entries: WatchlistEntryInput[] = [];
    let problems: string[] = [];
    const found: typeof errors = {};
    const nameCheck = WatchlistCreation.shape.name.safeParse(name);
    if (!nameCheck.success) found.name = nameCheck.error.issues.map((issue) => issue.message);
    if (source === "inventory") {
      const reading = readInventory(inventory);
      if (reading.ok) ({ entries, problems } = reading);
      else Object.assign(found, reading.errors);
    } else {
      const picked = readPickedProducts(rows);
      if (picked.ok) entries = picked.entries;
      else found.rows = picked.errors;
    }
    setErrors(found);
    if (Object.keys(found).length > 0) {
      const first = found.name
        ? "watchlist-name"
        : found.inventory
          ? "watchlist-create-inventory"
          : found.wordpress
            ? "watchlist-create-wordpress"
            : null;
      if (first) document.getElementById(first)?.focus();
      return;
    }
    setBusy(true);
    try {
      const created = await watchlistsApi.create(client, { name: nameCheck.data ?? name, entries });
      await queryClient.invalidateQueries({ queryKey: watchlistsKey });
      const state: CreatedState = { problems };
      navigate(watchlistPath(created.id), { state });
    } catch (error) {
      setErrors({ form: [messageOf(error)] });
      setBusy(false);
    }
  }

  return (
    <form
      method="post"
      onSubmit={(event) => void submit(event)}
      noValidate
      className="space-y-5"
      aria-label="New watchlist"
    >
      <div className="max-w-md">
        <FormField
          label="Name"
          htmlFor="watchlist-name"
          errors={errors.name}
          hint="Such as the site's address."
        >
          <input
            id="watchlist-name"
            type="text"
            maxLength={100}
            value={name}
            onChange={(event) => setName(event.target.value)}
            placeholder="example.com"
            className={INPUT_CLASS}
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={errors.name ? "watchlist-name-error" : undefined}
          />
        </FormField>
      </div>
      <fieldset>
        <legend className="text-sm font-medium text-slate-700">What the site runs</legend>
        <div className="mt-2 flex flex-wrap gap-x-6 gap-y-2">
          {(
            [
              ["inventory", "Upload or paste its inventory"],
              ["products", "Pick products one by one"],
            ] as const
          ).map(([value, label]) => (
            <label key={value} className="inline-flex items-center gap-2 text-sm text-slate-800">
              <input
                type="radio"
                name="watchlist-source"
                value={value}
                checked={source === value}
                onChange={() => setSource(value)}
              />
              {label}
            </label>
          ))}
        </div>
      </fieldset>
      {source === "inventory" ? (
        <InventoryFields
          idPrefix="watchlist-create"
          value={inventory}
          onChange={setInventory}
          errors={errors}
        />
      ) : (
        <ProductRows rows={rows} onChange={setRows} errors={errors.rows ?? {}} />
      )}
      <FormAlert messages={errors.form} />
      <button type="submit" className="btn-primary" disabled={busy}>
        {busy ? "Creating…" : "Create watchlist"}
      </button>
    </form>
  );
}
