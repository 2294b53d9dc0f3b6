import { publicData } from "../../http/access.ts";
import { idOrNotFound } from "../../http/ids.ts";
import { NOT_FOUND_MESSAGES } from "./presenters.ts";

/** What every route of the public database shares: its cache lifetime, its OpenAPI tag, its ids. */

/** Public reads may be five minutes old; revalidation is cheap thanks to the ETag. */
export const PUBLIC_CACHE_SECONDS = 300;
export const publicRead = { ...publicData, publicCacheSeconds: PUBLIC_CACHE_SECONDS } as const;
export const tags = ["public database"];

/** A product id of the specification's product API: digits, or the product does not exist. */
export function productIdOf(value: string): number {
  return idOrNotFound(value, NOT_FOUND_MESSAGES.product);
}
