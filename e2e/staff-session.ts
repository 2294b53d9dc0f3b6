import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type APIRequestContext, type BrowserContext, request as playwrightRequest } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { authModeOf, handTokenToBrowser } from "./auth-helpers.ts";

/**
 * The e2e staff account (playwright.config.ts makes it with `user:create --staff`) with its second
 * factor, which staff need for the triage area (PRODUCT.md §7). Workers run in parallel and the
 * server accepts each TOTP time step once per account, so the secret and the last step used live in
 * a file shared by the run's workers, written under a lock directory (mkdir is atomic). Each server
 * of the run (cookie mode and the token projects, playwright.config.ts) has its own database and so
 * its own staff account with its own secret: the file is keyed by the server's base URL too.
 * In a token project staff sign in the token way (`token: true`, then `Authorization: Bearer`).
 *
 * A time step lasts 30 s, so the server takes about one staff sign-in per 30 s: the suite's dozen
 * staff sign-ins per server queued behind each other's steps (a 3-s spec took 60 s in CI). The specs
 * that need staff only to act share one session per server, signed in once with the second factor
 * and kept in the same file; the login form's own test (e2e/staff-triage.spec.ts) still signs in with
 * a code of its own.
 */

const STEP_MS = 30_000;

export function staffCredentials(): { email: string; password: string } {
  const email = process.env.E2E_STAFF_EMAIL;
  const password = process.env.E2E_STAFF_PASSWORD;
  if (!email || !password) throw new Error("E2E_STAFF_EMAIL and E2E_STAFF_PASSWORD are not set");
  return { email, password };
}

type StoredCookie = Awaited<ReturnType<APIRequestContext["storageState"]>>["cookies"][number];

interface StaffState {
  secret: string;
  lastStep: number;
  /** The shared session: its cookies (cookie mode) or its token (token mode). */
  session?: { cookies: StoredCookie[]; token: string | null };
}

function stateFiles(baseURL: string) {
  if (!baseURL) throw new Error("the staff state needs the server's base URL");
  const name = `${baseURL}-${staffCredentials().email}`.replace(/[^a-z0-9]+/gi, "-");
  // With the runner's own servers the state lives in its temporary folder, removed at exit (their
  // staff accounts are new each run); against E2E_BASE_URL it outlives the run, like the account.
  const folder = process.env.E2E_BASE_URL ? tmpdir() : (process.env.E2E_TEMP_ROOT ?? tmpdir());
  const base = join(folder, `pressguard-e2e-${name}`);
  return { state: `${base}.json`, lock: `${base}.lock` };
}

async function withLock<T>(baseURL: string, work: () => Promise<T>): Promise<T> {
  const { lock } = stateFiles(baseURL);
  const started = Date.now();
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (Date.now() - started > 90_000) throw new Error(`the staff lock ${lock} is held too long`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    return await work();
  } finally {
    rmdirSync(lock);
  }
}

function totpOf(secret: string) {
  return new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) });
}

function readState(baseURL: string): StaffState | null {
  const { state } = stateFiles(baseURL);
  return existsSync(state) ? (JSON.parse(readFileSync(state, "utf8")) as StaffState) : null;
}

function writeState(baseURL: string, state: StaffState) {
  writeFileSync(stateFiles(baseURL).state, JSON.stringify(state));
}

async function csrfHeaders(request: APIRequestContext): Promise<Record<string, string>> {
  const find = async () =>
    (await request.storageState()).cookies.find((entry) => entry.name === "XSRF-TOKEN")?.value;
  if (!(await find())) await request.get("/api/csrf-cookie");
  return { "X-XSRF-TOKEN": decodeURIComponent((await find()) ?? "") };
}

/**
 * A code for a time step later than the last one used and not before the current one. The server
 * accepts one step of drift, so the next step's code works at once; beyond that this waits.
 */
async function nextCodeLocked(baseURL: string, state: StaffState): Promise<string> {
  let current = Math.floor(Date.now() / STEP_MS);
  let step = Math.max(current, state.lastStep + 1);
  while (step > current + 1) {
    await new Promise((resolve) => setTimeout(resolve, (current + 1) * STEP_MS - Date.now() + 250));
    current = Math.floor(Date.now() / STEP_MS);
    step = Math.max(current, state.lastStep + 1);
  }
  state.lastStep = step;
  writeState(baseURL, state);
  return totpOf(state.secret).generate({ timestamp: step * STEP_MS + 1_000 });
}

/**
 * Signs `request` in as staff (with `code` once the second factor is on) and answers the headers of
 * its later calls: the CSRF pair in cookie mode (the session cookie travels in the context's jar),
 * the token in token mode, which also comes back for handing to a browser.
 */
async function staffLogin(
  request: APIRequestContext,
  code?: string,
): Promise<{ headers: Record<string, string>; token: string | null }> {
  const { email, password } = staffCredentials();
  const tokenMode = authModeOf().mode === "token";
  const response = await request.post("/api/login", {
    headers: tokenMode ? {} : await csrfHeaders(request),
    data: { email, password, ...(code && { code }), ...(tokenMode && { token: true }) },
  });
  if (response.status() !== 200)
    throw new Error(`staff login: ${response.status()} ${await response.text()}`);
  if (!tokenMode) return { headers: await csrfHeaders(request), token: null };
  const { token } = (await response.json()) as { token: string };
  return { headers: { Authorization: `Bearer ${token}` }, token };
}

/** Turns the staff account's second factor on once per run and server (idempotent across workers). */
export async function ensureStaffTwoFactor(baseURL: string): Promise<void> {
  await withLock(baseURL, async () => {
    if (readState(baseURL)) return;
    const request = await playwrightRequest.newContext({ baseURL });
    try {
      const { headers } = await staffLogin(request);
      const started = await request.post("/api/user/two-factor", { headers });
      if (started.status() !== 200)
        throw new Error(`two-factor start: ${started.status()} ${await started.text()}`);
      const { secret } = (await started.json()) as { secret: string };
      const state: StaffState = { secret, lastStep: 0 };
      const code = await nextCodeLocked(baseURL, state);
      const confirmed = await request.post("/api/user/two-factor/confirm", { headers, data: { code } });
      if (confirmed.status() !== 200)
        throw new Error(`two-factor confirm: ${confirmed.status()} ${await confirmed.text()}`);
    } finally {
      await request.dispose();
    }
  });
}

/**
 * Hands `use` a fresh TOTP code for the staff account of the server at `baseURL` and keeps the lock
 * until `use` has signed in with it: the server spends steps in order, so a later step signed in by
 * another worker first would make this one's code stale.
 */
export async function withNextStaffCode<T>(baseURL: string, use: (code: string) => Promise<T>): Promise<T> {
  await ensureStaffTwoFactor(baseURL);
  return withLock(baseURL, async () => {
    const state = readState(baseURL);
    if (!state) throw new Error("the staff second factor is not set up");
    return use(await nextCodeLocked(baseURL, state));
  });
}

/** The run's shared staff session on the server at `baseURL`, signed in on first use. */
async function sharedStaffSession(baseURL: string): Promise<NonNullable<StaffState["session"]>> {
  await ensureStaffTwoFactor(baseURL);
  return withLock(baseURL, async () => {
    const state = readState(baseURL);
    if (!state) throw new Error("the staff second factor is not set up");
    if (state.session) return state.session;
    const request = await playwrightRequest.newContext({ baseURL });
    try {
      const { token } = await staffLogin(request, await nextCodeLocked(baseURL, state));
      state.session = { cookies: (await request.storageState()).cookies, token };
      writeState(baseURL, state);
      return state.session;
    } finally {
      await request.dispose();
    }
  });
}

/**
 * A bare API context signed in as the staff account (the shared session), with the headers of its
 * calls: the CSRF pair in cookie mode, the Bearer token in token mode; and the token (token mode) for
 * `handTokenToBrowser`. The caller disposes of the context.
 */
export async function staffRequestContext(
  baseURL: string,
): Promise<{ request: APIRequestContext; headers: Record<string, string>; token: string | null }> {
  const { cookies, token } = await sharedStaffSession(baseURL);
  const request = await playwrightRequest.newContext({ baseURL, storageState: { cookies, origins: [] } });
  const headers = token ? { Authorization: `Bearer ${token}` } : await csrfHeaders(request);
  return { request, headers, token };
}

/** Signs a browser context in as staff (the shared session): its cookie jar, or its token in token mode. */
export async function signInStaffInBrowser(context: BrowserContext, baseURL: string): Promise<void> {
  const { cookies, token } = await sharedStaffSession(baseURL);
  if (token) await handTokenToBrowser(context, token);
  else await context.addCookies(cookies);
}
