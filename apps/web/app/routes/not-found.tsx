import { throwNotFound } from "../lib/errors.ts";

/**
 * Any path no other route claims: 404 "Page not found" (spec §2, §8), shown by the base layout's
 * error boundary. Crawlers get a plain-text 404 instead (see entry.server.tsx).
 */
export function loader(): never {
  throwNotFound();
}

/**
 * Never rendered (the loader always throws), but required: a route module without a component is
 * a resource route, and its thrown 404 would be answered as JSON instead of the HTML error page.
 */
export default function NotFoundPage() {
  return null;
}
