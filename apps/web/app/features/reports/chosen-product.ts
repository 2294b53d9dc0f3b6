/** The product a report is about: an existing one (with its id) or one typed in (no id: a lobby product). */
export interface ChosenProduct {
  kind: string;
  slug: string;
  name: string;
  /** Known to the database: its id and count of known vulnerabilities. */
  id?: number | undefined;
  vulnerabilities?: number | undefined;
}

/** A product the picker offers when it is limited to a list (the vendor's active programs). */
export interface ProductChoice {
  id: number;
  kind: string;
  slug: string;
  name: string;
}

/** What a product part of the form shows and changes. */
export interface ProductFieldProps {
  value: ChosenProduct;
  onChange: (product: ChosenProduct) => void;
  /** The messages of the product's three fields. */
  errors: {
    kind?: string[] | undefined;
    product_slug?: string[] | undefined;
    product_name?: string[] | undefined;
  };
  idPrefix: string;
}
