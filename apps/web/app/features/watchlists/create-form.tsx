import type { WatchlistEntryInput } from "@pressguard/domain";
import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import { useApiClient } from "../../lib/api/client.ts";
import {
  apiErrorToFieldErrors,
  type FieldErrorMap,
  type FieldOf,
  FORM_ERROR_KEY,
} from "../../lib/form-errors.ts";
import { FormAlert, FormField } from "../../ui/form-field.tsx";
import { useSchemaForm } from "../../ui/use-schema-form.ts";
import { watchlistPath, watchlistsApi, watchlistsKey } from "./api.ts";
import { EMPTY_INVENTORY, type InventoryValues, inventoryFieldOf } from "./inventory.ts";
import { InventoryFields } from "./inventory-fields.tsx";
import { emptyRow, type ProductRow, ProductRows } from "./product-rows.tsx";

type Source = "inventory" | "products";

/** What the new watchlist's page shows once: the parser's sentences about the uploaded list. */
export interface CreatedState {
  problems: string[];
}

type Values = InventoryValues & {
  name: string;
  source: Source;
  rows: ProductRow[];
};

/** The fields in the order of the form (the picked products' rows take no focus). */
const FIELDS = ["name", "inventory", "wordpress"] as const;

/** A picked product's messages go by its row, named as the request names its entry: `entries.2`. */
const rowField = (index: number) => `entries.${index}`;

/** A request's field as the form shows it: an entry at the list it was read from, or at its row. */
const entryFieldOf = (source: Source): FieldOf =>
  source === "inventory" ? inventoryFieldOf : (field) => /^entries\.\d+/.exec(field)?.[0] ?? field;

/**
 * The entries the form sends, read from the inventory or the picked products, and what stops them.
 * The reading (the domain's parser and the API's entry rule) is fetched when the form is sent.
 */
async function readEntries(values: Values): Promise<{
  entries: WatchlistEntryInput[];
  problems: string[];
  errors: FieldErrorMap;
}> {
  const { readInventoryValues, readPickedProducts } = await import("./inventory-reading.ts");
  if (values.source === "inventory") {
    const reading = readInventoryValues(values);
    return reading.ok
      ? { entries: reading.entries, problems: reading.problems, errors: {} }
      : { entries: [], problems: [], errors: reading.errors };
  }
  const picked = readPickedProducts(values.rows);
  if (picked.ok) return { entries: picked.entries, problems: [], errors: {} };
  const errors = Object.entries(picked.errors).map(([index, message]) => [
    rowField(Number(index)),
    [message],
  ]);
  return { entries: [], problems: [], errors: Object.fromEntries(errors) };
}

/**
 * A new watchlist: its name and either a site's inventory (uploaded or pasted) or products picked one
 * by one. Once created, its page opens with the exposures.
 */
export function CreateWatchlistForm() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const form = useSchemaForm({
    schema: () => import("./schemas.ts").then((schemas) => schemas.WatchlistCreation),
    fields: FIELDS,
    initialValues: (): Values => ({ name: "", source: "inventory", ...EMPTY_INVENTORY, rows: [emptyRow()] }),
    idPrefix: "watchlist-create",
    idOf: (field) => (field === "name" ? "watchlist-name" : `watchlist-create-${field}`),
    toInput: async (values) => ({ name: values.name, entries: (await readEntries(values)).entries }),
    check: async (values) => (await readEntries(values)).errors,
    async onSubmit(data, values) {
      const created = await watchlistsApi.create(client, data);
      await queryClient.invalidateQueries({ queryKey: watchlistsKey });
      const state: CreatedState = { problems: (await readEntries(values)).problems };
      navigate(watchlistPath(created.id), { state });
    },
    fieldOf: (field, values) => entryFieldOf(values.source)(field),
    // The rows are fields too, as many as there are.
    errorsOf: (error, values) =>
      apiErrorToFieldErrors(
        error,
        [...FIELDS, "entries", ...values.rows.map((_, index) => rowField(index))],
        entryFieldOf(values.source),
      ),
  });
  const { values, errors, busy, idOf } = form;

  function setRows(rows: ProductRow[]) {
    form.set("rows", rows);
    form.clearErrors(...values.rows.map((_, index) => rowField(index)));
  }

  return (
    <form
      method="post"
      onSubmit={form.handleSubmit}
      noValidate
      className="space-y-5"
      aria-label="New watchlist"
    >
      <div className="max-w-md">
        <FormField
          label="Name"
          htmlFor={idOf("name")}
          errors={errors.name}
          hint="Such as the site's address."
        >
          <input type="text" maxLength={100} placeholder="example.com" {...form.inputProps("name")} />
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
                checked={values.source === value}
                onChange={() => form.set("source", value)}
              />
              {label}
            </label>
          ))}
        </div>
      </fieldset>
      {values.source === "inventory" ? (
        <InventoryFields
          idPrefix="watchlist-create"
          field={form.inputProps}
          errors={errors}
          onFileRead={(text) => form.set("inventory", text)}
        />
      ) : (
        <ProductRows rows={values.rows} onChange={setRows} errorsOf={(index) => errors[rowField(index)]} />
      )}
      {/* What is said of the entries as a whole (too many) belongs to no one field. */}
      <FormAlert messages={[...(errors[FORM_ERROR_KEY] ?? []), ...(errors.entries ?? [])]} />
      <button type="submit" className="btn-primary" disabled={busy}>
        {busy ? "Creating…" : "Create watchlist"}
      </button>
    </form>
  );
}
