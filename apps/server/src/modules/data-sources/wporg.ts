import { z } from "zod";

/**
 * The WordPress.org plugin and theme directories' info API (version 1.2, GET):
 *   /plugins/info/1.2/?action=plugin_information&request[slug]=<slug>&request[fields][…]=0|1
 *   /themes/info/1.2/?action=theme_information&request[slug]=<slug>&request[fields][…]=0|1
 * The answers' shapes follow the directory's code (github.com/WordPress/wordpress.org: the plugin
 * directory's api/routes/class-plugin.php, the theme directory's class-themes-api.php and
 * api.wordpress.org/public_html/themes/info/1.0/index.php).
 */
export const WPORG_DEFAULT_API_URL = "https://api.wordpress.org";

const WPORG_TIMEOUT_MS = 15_000;

export type DirectoryKind = "plugin" | "theme";

export type DirectoryInfo =
  | {
      state: "open";
      /** The directory's current (stable) version. */
      version: string;
      /** WordPress.org's rounded estimate (e.g. 10000 for "10,000+"). */
      activeInstalls: number;
      /** The last change in the directory, UTC; null when the answer has none that reads as a date. */
      lastUpdated: Date | null;
    }
  | {
      /** Closed (plugins only): no longer downloadable, for the `reason` given. */
      state: "closed";
      /** `YYYY-MM-DD`; null for closures the directory did not date (before 2018). */
      closedDate: string | null;
      /**
       * A code: security-issue, author-request, guideline-violation, licensing-trademark-violation,
       * merged-into-core, unused, unknown…; null while not public (shown 60 days after closing).
       */
      reason: string | null;
      /** The reason in words, e.g. "Security Issue". */
      reasonText: string | null;
      /** From the notice ("This closure is permanent." / "…temporary…"); null when it does not say. */
      permanent: boolean | null;
    }
  | { state: "not_found" };

/** WordPress.org could not be asked, or answered something that is neither info, closed nor not found. */
export class WporgError extends Error {
  override readonly name = "WporgError";
  /** The HTTP status of the answer, null when there was none. */
  readonly status: number | null;

  constructor(message: string, options: { status?: number | null; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.status = options.status ?? null;
  }
}

/** What the sync needs, and nothing heavy: the 1.2 API takes `0`/`1` for each field. */
const REQUESTED_FIELDS: Record<DirectoryKind, Record<string, 0 | 1>> = {
  plugin: {
    active_installs: 1,
    last_updated: 1,
    sections: 0,
    description: 0,
    short_description: 0,
    reviews: 0,
    banners: 0,
    icons: 0,
    screenshots: 0,
    versions: 0,
    contributors: 0,
    ratings: 0,
    tags: 0,
    compatibility: 0,
    donate_link: 0,
  },
  // A theme's active_installs are only there when asked for.
  theme: { active_installs: 1, last_updated: 1, sections: 0, description: 0, tags: 0, versions: 0 },
};

/**
 * A slug the WordPress.org directories have; imported premium slugs with capitals are not. Its
 * source is a PostgreSQL regex too (wporg-queries.ts picks the products to ask about by it).
 */
export const DIRECTORY_SLUG_PATTERN = /^[a-z0-9][a-z0-9._-]{0,199}$/;

/** The info URL of a plugin or theme, under `baseUrl` (which may carry a path, e.g. a mirror's). */
export function directoryInfoUrl(baseUrl: string, kind: DirectoryKind, slug: string): URL {
  if (!DIRECTORY_SLUG_PATTERN.test(slug))
    throw new RangeError(`Not a WordPress.org ${kind} slug: ${JSON.stringify(slug)}`);
  const url = new URL(`${kind}s/info/1.2/`, baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`);
  url.searchParams.set("action", `${kind}_information`);
  url.searchParams.set("request[slug]", slug);
  // English answers: the closure notice is read for "permanent".
  url.searchParams.set("request[locale]", "en_US");
  for (const [field, wanted] of Object.entries(REQUESTED_FIELDS[kind]))
    url.searchParams.set(`request[fields][${field}]`, String(wanted));
  return url;
}

const WPORG_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?\s*([ap]m)?)?\s*(?:GMT|UTC|Z)?$/i;

/**
 * The directory's dates, all UTC: a plugin's `last_updated` ("2024-05-30 3:12pm GMT"), a theme's
 * `last_updated_time` ("2024-05-30 15:12:00") or `last_updated` ("2024-05-30"). Null otherwise.
 */
export function parseWporgDate(text: string): Date | null {
  const match = WPORG_DATE_TIME.exec(text.trim());
  if (!match) return null;
  const [, year, month, day, hours = "0", minutes = "0", seconds = "0", meridiem] = match;
  let hour = Number(hours);
  if (meridiem) {
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (meridiem.toLowerCase() === "pm" ? 12 : 0);
  }
  const date = new Date(
    Date.UTC(Number(year), Number(month) - 1, Number(day), hour, Number(minutes), Number(seconds)),
  );
  // Date.UTC rolls 2024-02-30 over to March; such a date is not one.
  const roundTrip = `${year}-${month}-${day}` === date.toISOString().slice(0, 10);
  return roundTrip && hour < 24 && Number(minutes) < 60 && Number(seconds) < 60 ? date : null;
}

/** A string that says something, or null (the API writes `false` or "" for "none"). */
const OptionalText = z
  .unknown()
  .optional()
  .transform((value) => (typeof value === "string" && value.trim() ? value.trim() : null));

const ClosedAnswer = z.object({
  closed_date: OptionalText.transform((value) => {
    const day = value?.slice(0, 10) ?? null;
    return day && z.iso.date().safeParse(day).success ? day : null;
  }),
  reason: OptionalText,
  reason_text: OptionalText,
  description: OptionalText,
});

const Version = z
  .union([z.string(), z.number()], { error: "version: missing" })
  .transform(String)
  .pipe(z.string().trim().min(1, "version: empty"));
// A theme's count is computed as a float on the directory's side (5000.0).
const ActiveInstalls = z
  .number({ error: "active_installs: missing or not a number" })
  .nonnegative("active_installs: negative")
  .transform(Math.round);

const OpenAnswer = {
  plugin: z.object({
    version: Version,
    active_installs: ActiveInstalls,
    last_updated: OptionalText.transform((text) => (text ? parseWporgDate(text) : null)),
  }),
  theme: z
    .object({
      version: Version,
      active_installs: ActiveInstalls,
      last_updated: OptionalText,
      last_updated_time: OptionalText,
    })
    .transform(({ last_updated, last_updated_time, ...rest }) => ({
      ...rest,
      last_updated:
        (last_updated_time ? parseWporgDate(last_updated_time) : null) ??
        (last_updated ? parseWporgDate(last_updated) : null),
    })),
};

function permanenceOf(description: string | null): boolean | null {
  if (!description) return null;
  if (/closure is permanent/i.test(description)) return true;
  if (/closure is temporary/i.test(description)) return false;
  return null;
}

/**
 * Reads one answer of the info API (its HTTP status and parsed JSON body). A closed plugin comes as
 * `{"error":"closed",…,"closed_date","reason","reason_text"}` (HTTP 404, sometimes 200); an unknown
 * slug as `{"error":"Plugin not found."}` or `{"error":"Theme not found"}` (HTTP 404). Throws
 * {@link WporgError} for anything else that is not the info.
 */
export function parseDirectoryInfo(kind: DirectoryKind, status: number, body: unknown): DirectoryInfo {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new WporgError(`WordPress.org answered HTTP ${status} with JSON that is not an object.`, {
      status,
    });
  const answer = body as Record<string, unknown>;
  const error = typeof answer.error === "string" ? answer.error.trim() : null;

  if (error?.toLowerCase() === "closed" || answer.closed === true) {
    const closed = ClosedAnswer.parse(answer);
    return {
      state: "closed",
      closedDate: closed.closed_date,
      reason: closed.reason,
      reasonText: closed.reason_text,
      permanent: permanenceOf(closed.description),
    };
  }
  if (error !== null) {
    // A 404 with the API's JSON error is an unknown slug; so is the older API's "not found" on a 200.
    if (status === 404 || /not found/i.test(error)) return { state: "not_found" };
    throw new WporgError(`WordPress.org answered HTTP ${status}: ${error}`, { status });
  }
  if (status < 200 || status >= 300)
    throw new WporgError(`WordPress.org answered HTTP ${status}.`, { status });

  const info = OpenAnswer[kind].safeParse(answer);
  if (!info.success)
    throw new WporgError(
      `WordPress.org's ${kind} info is not in the expected shape: ${info.error.issues.map((issue) => issue.message).join("; ")}.`,
      { status },
    );
  return {
    state: "open",
    version: info.data.version,
    activeInstalls: info.data.active_installs,
    lastUpdated: info.data.last_updated ?? null,
  };
}

export interface FetchDirectoryInfoOptions {
  /** Stands in for the global fetch (tests, a proxy-aware client). */
  fetch?: typeof fetch;
  /** Aborts the request (e.g. the sync is stopping); its reason is thrown as is. */
  signal?: AbortSignal;
  /** Default 15 s. */
  timeoutMs?: number;
}

/**
 * Asks the directory about one plugin or theme. Throws {@link WporgError} when WordPress.org
 * cannot be reached, times out, or answers something else than the info, a closure or "not found"
 * (a 5xx, a 429, an HTML page: a wrong `baseUrl` must not read as "every plugin is gone").
 */
export async function fetchDirectoryInfo(
  baseUrl: string,
  kind: DirectoryKind,
  slug: string,
  options: FetchDirectoryInfoOptions = {},
): Promise<DirectoryInfo> {
  const url = directoryInfoUrl(baseUrl, kind, slug);
  const timeoutMs = options.timeoutMs ?? WPORG_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const send = options.fetch ?? fetch;

  let status: number;
  let text: string;
  try {
    const response = await send(url, { headers: { accept: "application/json" }, signal });
    status = response.status;
    text = await response.text();
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    throw new WporgError(
      timeout.aborted
        ? `WordPress.org did not answer within ${timeoutMs} ms (${kind} ${slug}).`
        : `WordPress.org could not be reached (${kind} ${slug}): ${(error as Error).message}`,
      { cause: error },
    );
  }

  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new WporgError(
      `WordPress.org answered HTTP ${status} with a body that is not JSON (${kind} ${slug}).`,
      {
        status,
        cause: error,
      },
    );
  }
  return parseDirectoryInfo(kind, status, body);
}
