import type { CheckResponse, InventoryItem } from "@pressguard/domain";
import type { AppLoadContext } from "react-router";
import { isApiError } from "../../lib/api/api-error.ts";
import { createServerApiClient } from "../../lib/api/client.server.ts";
import type { CheckResults } from "./site-check-results.tsx";

export type SiteCheckOutcome =
  | { ok: true; results: CheckResults }
  /** `retryAfter`: the API's Retry-After (seconds) on a 429, for the page's own answer. */
  | { ok: false; status: number; message: string; retryAfter?: string };

/** The page's message for the API's 429: its answer says how many seconds to wait. */
function tooManyChecksMessage(apiMessage: string): string {
  const seconds = /(\d+)\s*seconds?/.exec(apiMessage)?.[1];
  return seconds
    ? `Too many checks from your address. Try again in ${seconds} seconds.`
    : "Too many checks from your address. Try again later.";
}

/**
 * The batch check for the "Check your site" page. Unlike a reading page's calls, it is counted on
 * the visitor's own rate-limit budget (the load context's `visitorApiHeaders`): the page must not be
 * a way around the public API's limit.
 */
export async function checkSite(
  request: Request,
  context: Partial<AppLoadContext> | undefined,
  items: InventoryItem[],
): Promise<SiteCheckOutcome> {
  const client = createServerApiClient(request, context, {
    forwardCookies: false,
    countedOnVisitor: true,
    retry: 1,
    timeout: 10_000,
  });
  let retryAfter = null as string | null;
  try {
    const answer = await client.request<CheckResponse>("/v1/check", {
      method: "POST",
      body: { items },
      onResponse: (response) => {
        retryAfter = response.headers.get("retry-after");
      },
    });
    return { ok: true, results: answer.results };
  } catch (error) {
    if (isApiError(error) && error.status === 429)
      return {
        ok: false,
        status: 429,
        message: tooManyChecksMessage(error.message),
        ...(retryAfter && { retryAfter }),
      };
    return {
      ok: false,
      status: 503,
      message: "The check could not be done just now. Try again in a moment.",
    };
  }
}
