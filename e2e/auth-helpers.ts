import { type APIRequestContext, type BrowserContext, expect, type Page, test } from "@playwright/test";

/** Where the web client keeps the token in token mode (apps/web/app/lib/api/token-storage.ts). */
const TOKEN_KEY = "pressguard.token";

/**
 * The auth mode of the server this test runs against: the token projects of playwright.config.ts
 * say so in their metadata (decision 021); every other project runs in cookie mode.
 */
export function authModeOf():
  | { mode: "cookie" }
  | { mode: "token"; tokenStorage: "cookie" | "localStorage" } {
  const metadata = test.info().project.metadata as { authMode?: string; tokenStorage?: string };
  if (metadata.authMode !== "token") return { mode: "cookie" };
  return {
    mode: "token",
    tokenStorage: metadata.tokenStorage === "localStorage" ? "localStorage" : "cookie",
  };
}

/** Tokens handed to browser contexts by the helpers below (token mode). */
const tokens = new WeakMap<BrowserContext, string>();

/** Runs `work` in a throwaway page of the context that is on the site's origin (for localStorage). */
async function onOrigin<T>(context: BrowserContext, work: (page: Page) => Promise<T>): Promise<T> {
  const page = await context.newPage();
  try {
    await page.goto("/healthz");
    return await work(page);
  } finally {
    await page.close();
  }
}

/** Token mode: keeps the token where the browser's pages read it, as the web client does. */
export async function handTokenToBrowser(context: BrowserContext, token: string) {
  const auth = authModeOf();
  if (auth.mode !== "token") return;
  tokens.set(context, token);
  if (auth.tokenStorage === "cookie") {
    const url = test.info().project.use.baseURL ?? "";
    await context.addCookies([{ name: TOKEN_KEY, value: encodeURIComponent(token), url }]);
    return;
  }
  await onOrigin(context, (page) =>
    page.evaluate(([key, value]) => localStorage.setItem(key, value), [TOKEN_KEY, token] as const),
  );
}

/** The token the browser holds now (token mode), wherever the web client keeps it. */
async function browserToken(source: Page | BrowserContext): Promise<string | null> {
  const auth = authModeOf();
  if (auth.mode !== "token") return null;
  const context = "context" in source ? source.context() : source;
  if (auth.tokenStorage === "cookie") {
    const cookie = (await context.cookies()).find((entry) => entry.name === TOKEN_KEY);
    return cookie ? decodeURIComponent(cookie.value) : null;
  }
  const read = (page: Page) => page.evaluate((key) => localStorage.getItem(key), TOKEN_KEY);
  if ("context" in source && source.url().startsWith("http")) return read(source);
  return (await onOrigin(context, read)) ?? tokens.get(context) ?? null;
}

/**
 * The headers of an API call made by the test as the browser's signed-in user: the CSRF pair in
 * cookie mode (the session cookie travels by itself), the browser's token in token mode.
 */
export async function userHeaders(source: Page | BrowserContext): Promise<Record<string, string>> {
  const context = "context" in source ? source.context() : source;
  if (authModeOf().mode === "cookie") return csrfHeader(context, context.request);
  const token = await browserToken(source);
  return token ? { Authorization: `Bearer ${token}` } : {};
}

/** The signed-in user as the API sees the browser's credentials (401 when signed out). */
export function currentUser(page: Page) {
  return userHeaders(page).then((headers) => page.request.get("/api/user", { headers }));
}

/** Signs the browser out from outside the page: its cookies, and in localStorage mode the token. */
export async function forgetSignIn(context: BrowserContext) {
  await context.clearCookies();
  tokens.delete(context);
  const auth = authModeOf();
  if (auth.mode === "token" && auth.tokenStorage === "localStorage")
    await onOrigin(context, (page) => page.evaluate((key) => localStorage.removeItem(key), TOKEN_KEY));
}

let counter = 0;
export function uniqueEmail(prefix: string): string {
  counter += 1;
  return `${prefix}-${Date.now()}-${counter}-${Math.random().toString(36).slice(2, 8)}@example.test`;
}

/** Cookie mode from outside the page: fetch the CSRF cookie, send it back as the header. */
async function csrfHeader(
  context: BrowserContext,
  request: APIRequestContext,
): Promise<Record<string, string>> {
  let cookie = (await context.cookies()).find((entry) => entry.name === "XSRF-TOKEN");
  if (!cookie) {
    await request.get("/api/csrf-cookie");
    cookie = (await context.cookies()).find((entry) => entry.name === "XSRF-TOKEN");
  }
  return { "X-XSRF-TOKEN": decodeURIComponent(cookie?.value ?? "") };
}

/**
 * Creates an account through the API in the browser context's cookie jar, so the page is signed in
 * as it. `roles` beyond the first are added with `POST /api/user/roles`; no role at all is a site
 * owner (issue 20). Unless `setUp` is false, the account is then set up (vendor account fields,
 * researcher profile), as its user would first.
 */
export async function signUpThroughApi(
  context: BrowserContext,
  roles: readonly ("vendor" | "researcher")[],
  password = "correct horse battery",
  { setUp = true }: { setUp?: boolean } = {},
) {
  const request = context.request;
  const email = uniqueEmail(roles.join("-") || "site-owner");
  const tokenMode = authModeOf().mode === "token";
  const response = await request.post("/api/register", {
    headers: tokenMode ? {} : await csrfHeader(context, request),
    data: {
      name: `E2E ${roles.join(" and ") || "site owner"}`,
      email,
      password,
      role: roles[0] ?? "site_owner",
      ...(tokenMode && { token: true }),
    },
  });
  if (response.status() !== 202) throw new Error(`register: ${response.status()} ${await response.text()}`);
  // Registration signs nobody in (it never tells a new address from a known one).
  await signInThroughApi(context, email, password);
  const headers = await userHeaders(context);
  for (const role of roles.slice(1)) {
    const added = await request.post("/api/user/roles", { headers, data: { role } });
    if (added.status() !== 200) throw new Error(`add role: ${added.status()}`);
  }
  if (setUp) await setUpAccount(request, headers, email, roles);
  const user = await (await request.get("/api/user", { headers })).json();
  return { email, password, user: user as { id: number; researcher: { uuid: string } | null } };
}

/** Sets up the signed-in browser context's new account through the API (see `setUpAccount`). */
export async function setUpThroughApi(
  context: BrowserContext,
  email: string,
  roles: readonly ("vendor" | "researcher")[],
) {
  await setUpAccount(context.request, await userHeaders(context), email, roles);
}

/**
 * What a new user does first (issue 19: the root and the vendor area hold an account at its set-up
 * until then): saves the vendor account's fields and the researcher profile, through the API.
 */
async function setUpAccount(
  request: APIRequestContext,
  headers: Record<string, string>,
  email: string,
  roles: readonly ("vendor" | "researcher")[],
) {
  const saves = [
    roles.includes("vendor") &&
      request.put("/api/vendor/account", {
        headers,
        data: {
          vendor_name: "E2E Vendor",
          contact_email: email,
          contact_person: "E2E Contact",
          timezone: "UTC",
        },
      }),
    roles.includes("researcher") &&
      request.put("/api/researcher/profile", { headers, data: { display_name: "E2E researcher" } }),
  ];
  for (const save of saves) {
    if (!save) continue;
    const answer = await save;
    if (answer.status() !== 200) throw new Error(`set-up: ${answer.status()} ${await answer.text()}`);
  }
}

/** The login page a guarded path sends an anonymous visitor to, or null for an open page. */
export function loginPathFor(path: string): string | null {
  if (path === "/vdp/login" || path === "/researchers/login") return null;
  if (path.startsWith("/vdp/")) return "/vdp/login";
  if (path.startsWith("/researchers/")) return "/researchers/login";
  // Staff sign in on the vendor login (lib/guards.server.ts, user-role).
  if (path.startsWith("/staff/")) return "/vdp/login";
  // Any signed-in user keeps watchlists (issue 20) and an account page (issue 38); every account
  // signs in on the vendor login.
  if (path === "/watchlists" || path.startsWith("/watchlists/") || path === "/account") return "/vdp/login";
  return null;
}

/** Signs the browser context in through the API (either auth mode). */
export async function signInThroughApi(context: BrowserContext, email: string, password: string) {
  const tokenMode = authModeOf().mode === "token";
  const response = await context.request.post("/api/login", {
    headers: tokenMode ? {} : await csrfHeader(context, context.request),
    data: { email, password, ...(tokenMode && { token: true }) },
  });
  if (response.status() !== 200) throw new Error(`login: ${response.status()} ${await response.text()}`);
  if (tokenMode) await handTokenToBrowser(context, ((await response.json()) as { token: string }).token);
}

/** Cookie mode for a bare API context (no browser): its own XSRF-TOKEN cookie, sent back as the header. */
export async function csrfHeaderOf(request: APIRequestContext): Promise<Record<string, string>> {
  const find = async () =>
    (await request.storageState()).cookies.find((entry) => entry.name === "XSRF-TOKEN")?.value;
  let value = await find();
  if (!value) {
    await request.get("/api/csrf-cookie");
    value = await find();
  }
  return { "X-XSRF-TOKEN": decodeURIComponent(value ?? "") };
}

/** Registers an account with one role in a bare API context's cookie jar, signs it in and sets it up. */
export async function registerWithRequest(request: APIRequestContext, role: "vendor" | "researcher") {
  const email = uniqueEmail(role);
  const response = await request.post("/api/register", {
    headers: await csrfHeaderOf(request),
    data: { name: `E2E ${role}`, email, password: "correct horse battery", role },
  });
  if (response.status() !== 202) throw new Error(`register: ${response.status()} ${await response.text()}`);
  const signedIn = await request.post("/api/login", {
    headers: await csrfHeaderOf(request),
    data: { email, password: "correct horse battery" },
  });
  if (signedIn.status() !== 200) throw new Error(`login: ${signedIn.status()} ${await signedIn.text()}`);
  await setUpAccount(request, await csrfHeaderOf(request), email, [role]);
  return (await signedIn.json()) as { id: number; researcher: { uuid: string } | null };
}

/**
 * A researcher without a public profile (new account, signed-out report) lands on its set-up first
 * (issue 19); saving the prefilled form leads on to their reports.
 */
export async function saveNewResearcherProfile(page: Page) {
  await expect(page).toHaveURL(/\/researchers\/create$/, { timeout: 15_000 });
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  await page.getByRole("button", { name: "Save and continue" }).click();
  await expect(page).toHaveURL(/\/researchers\/[0-9a-f-]{36}\/in-review$/);
}

/** A new vendor owner on `/vdp/create-account` fills in the vendor account and saves it. */
export async function saveNewVendorAccount(page: Page, email: string) {
  await expect(page).toHaveURL(/\/vdp\/create-account$/);
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  await page.getByLabel("Vendor name").fill("Journey Vendor Ltd");
  await page.getByLabel("Vendor e-mail").fill(email);
  await page.getByLabel("Person of contact").fill("Jane Journey");
  await page.getByLabel("Time zone").selectOption("Europe/Tallinn");
  await page.getByRole("button", { name: "Save and continue" }).click();
  await expect(page).toHaveURL(/\/vdp\/programs\/(pending|all)$/);
}

/** Opens `path` and waits until React has hydrated it (root.tsx sets data-hydrated). */
export async function gotoHydrated(page: Page, path: string) {
  await page.goto(path);
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
}

type MailSource = Page | BrowserContext | APIRequestContext;
const requestOf = (source: MailSource): APIRequestContext => ("request" in source ? source.request : source);

/**
 * The newest mail to `email` that `pick` finds something in (a link, the whole text…), read from the
 * development mailbox as a user would, polling until it arrives.
 */
export async function fromMailbox<T>(
  source: MailSource,
  email: string,
  pick: (mail: { subject: string; text: string }) => T | undefined,
): Promise<T> {
  let found: T | undefined;
  await expect
    .poll(async () => {
      const response = await requestOf(source).get(`/api/dev/mail?limit=200&to=${encodeURIComponent(email)}`);
      const mails = (await response.json()).data as { subject: string; text: string }[];
      found = mails.map(pick).find((value) => value !== undefined);
      return found !== undefined;
    })
    .toBe(true);
  return found as T;
}

/** The newest link matching `pattern` mailed to `email`. */
export function mailedLink(source: MailSource, email: string, pattern: RegExp): Promise<string> {
  return fromMailbox(source, email, (mail) => mail.text.match(pattern)?.[0]);
}

/** A POST from the browser context as its signed-in user (`userHeaders`: either auth mode). */
export async function postAsUser(context: BrowserContext, path: string, data: unknown) {
  return context.request.post(path, { headers: await userHeaders(context), data });
}
