import { kindLabel } from "../../lib/report-labels.ts";
import { errorIdFor, FormField, INPUT_CLASS } from "../../ui/form-field.tsx";
import type { ProductChoice, ProductFieldProps } from "./chosen-product.ts";
import { KnownVulnerabilities } from "./known-vulnerabilities.tsx";
import { ProductSearch } from "./product-search.tsx";

interface ProductPickerProps extends ProductFieldProps {
  /** Typed in from the start (an unknown product on the pre-filled route). */
  initiallyManual?: boolean;
  /**
   * The only products that may be reported (the vendor embed): picked from this list, with no search
   * and no typing in.
   */
  choices?: readonly ProductChoice[] | undefined;
}

/**
 * PRODUCT.md §3: the product is picked by search over the database (`GET /api/v1/products`); one
 * that is not listed is typed in (slug and name) and becomes a lobby product on the server.
 */
export function ProductPicker({
  value,
  onChange,
  errors,
  idPrefix,
  initiallyManual = false,
  choices,
}: ProductPickerProps) {
  if (choices)
    return (
      <ProductChoiceSelect
        value={value}
        onChange={onChange}
        errors={errors}
        idPrefix={idPrefix}
        choices={choices}
      />
    );
  return (
    <ProductSearch
      value={value}
      onChange={onChange}
      errors={errors}
      idPrefix={idPrefix}
      initiallyManual={initiallyManual}
    />
  );
}

/** The vendor embed: one select over the vendor's products; the chosen one's known vulnerabilities below. */
function ProductChoiceSelect({
  value,
  onChange,
  errors,
  idPrefix,
  choices,
}: ProductFieldProps & { choices: readonly ProductChoice[] }) {
  const id = `${idPrefix}-product_slug`;
  const selected = choices.find((choice) => choice.kind === value.kind && choice.slug === value.slug);
  const problem = errors.kind ?? errors.product_slug ?? errors.product_name;
  return (
    <div className="space-y-4">
      <FormField label="Affected software" htmlFor={id} errors={problem}>
        <select
          id={id}
          name="product"
          className={INPUT_CLASS}
          value={selected ? String(selected.id) : ""}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? errorIdFor(id) : undefined}
          onChange={(event) => {
            const choice = choices.find((item) => String(item.id) === event.target.value);
            onChange(
              choice
                ? { kind: choice.kind, slug: choice.slug, name: choice.name, id: choice.id }
                : { kind: value.kind, slug: "", name: "" },
            );
          }}
        >
          {choices.length !== 1 && <option value="">Choose a product…</option>}
          {choices.map((choice) => (
            <option key={choice.id} value={choice.id}>
              {choice.name} ({kindLabel(choice.kind)})
            </option>
          ))}
        </select>
      </FormField>
      {selected && (
        <KnownVulnerabilities productId={selected.id} product={value} count={value.vulnerabilities} />
      )}
    </div>
  );
}
