import { readStoredToken } from "./token-storage.ts";

/**
 * Decision 021: with the token in localStorage, the browser's requests for page data (React
 * Router's `.data` fetches, which run the page loaders on the server) carry it as a Bearer header,
 * so that the loaders act as the visitor. React Router offers no hook for the headers of these
 * requests, so `fetch` is wrapped — for same-origin `.data` URLs only; every other call is untouched.
 */
export function withPageDataToken(
  fetchImpl: typeof fetch,
  readToken: () => string | null,
  origin: string,
): typeof fetch {
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input), origin);
    const token = url.origin === origin && url.pathname.endsWith(".data") ? readToken() : null;
    if (!token) return fetchImpl(input, init);
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    headers.set("Authorization", `Bearer ${token}`);
    return fetchImpl(input, { ...init, headers });
  };
}

let installed = false;

/** Wraps the browser's `fetch` once (token mode with localStorage only; see `withPageDataToken`). */
export function installPageDataToken(): void {
  if (installed || typeof window === "undefined") return;
  installed = true;
  window.fetch = withPageDataToken(
    window.fetch.bind(window),
    () => readStoredToken("localStorage"),
    window.location.origin,
  );
}
