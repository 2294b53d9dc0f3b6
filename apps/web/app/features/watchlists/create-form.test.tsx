// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { developmentPublicConfig } from "../../lib/request-context.server.ts";
import { CreateWatchlistForm } from "./create-form.tsx";

/** React's own check that every update of a test runs inside `act`. */
declare global {
  var IS_REACT_ACT_ENVIRONMENT: boolean | undefined;
}

let root: Root | null = null;

// The form fetches its schema and the list reading when it is first changed and sent (issue 35); they
// are loaded once here, as a browser has them by the time the form is sent, so a submission settles
// within the few ticks `submit` waits.
beforeAll(async () => {
  await Promise.all([import("./schemas.ts"), import("./inventory-reading.ts")]);
});

beforeEach(() => {
  globalThis.IS_REACT_ACT_ENVIRONMENT = true;
});

afterEach(() => {
  act(() => root?.unmount());
  root = null;
  document.body.innerHTML = "";
  globalThis.IS_REACT_ACT_ENVIRONMENT = undefined;
  vi.unstubAllGlobals();
});

/** The API: every call answers `answer` (the CSRF cookie's too: cookie mode reads it and goes on). */
function stubApi(answer: () => Response) {
  const calls: { url: string; method: string }[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      calls.push({ url: String(input), method: init.method ?? "GET" });
      return answer();
    }),
  );
  return calls;
}

/** As in the app: under the root route, whose data holds the public configuration the API client reads. */
async function renderForm() {
  const router = createMemoryRouter([{ id: "root", path: "/", element: <CreateWatchlistForm /> }], {
    hydrationData: { loaderData: { root: { publicConfig: developmentPublicConfig("http://site.test") } } },
  });
  const container = document.createElement("div");
  document.body.append(container);
  root = createRoot(container);
  await act(async () => {
    root?.render(
      <QueryClientProvider client={new QueryClient()}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
  });
}

/** Types into a text box the way a browser does (React reads the native value setter's change). */
function type(id: string, value: string) {
  typeInto(document.getElementById(id) as HTMLInputElement | HTMLTextAreaElement, value);
}

function typeInto(element: HTMLInputElement | HTMLTextAreaElement, value: string) {
  const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(element), "value")?.set;
  act(() => {
    setter?.call(element, value);
    element.dispatchEvent(new Event("input", { bubbles: true }));
  });
}

/** Submits the form and lets the save and its failure settle. */
async function submit(form: HTMLFormElement) {
  await act(async () => {
    form.dispatchEvent(new Event("submit", { bubbles: true, cancelable: true }));
    for (let tick = 0; tick < 10; tick++) await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

describe("the new watchlist form", () => {
  it("shows a 422's message at the field it names, tied to the input", async () => {
    const message = "A watchlist of this name exists already.";
    const calls = stubApi(() =>
      Response.json({ status: "error", message, errors: { name: [message] } }, { status: 422 }),
    );
    await renderForm();
    type("watchlist-name", "example.com");
    type("watchlist-create-inventory", '[{"name":"contact-form-7","version":"5.3.1"}]');
    await submit(
      document.querySelector<HTMLFormElement>('form[aria-label="New watchlist"]') as HTMLFormElement,
    );

    expect(calls.some((call) => call.method === "POST" && call.url.endsWith("/watchlists"))).toBe(true);
    const input = document.getElementById("watchlist-name");
    expect(input?.getAttribute("aria-invalid")).toBe("true");
    const describedBy = input?.getAttribute("aria-describedby") ?? "";
    expect(document.getElementById(describedBy)?.textContent).toBe(message);
    // At its field only: not folded into the form's alert as "name …".
    expect(document.querySelector('[role="alert"]')).toBeNull();
  });

  it("shows a 422 about a picked product at its row", async () => {
    const message =
      "Not a version: send a version number such as 5.8.1, or latest for the product's current version.";
    stubApi(() =>
      Response.json(
        { status: "error", message, errors: { "entries.0.version": [message] } },
        { status: 422 },
      ),
    );
    await renderForm();
    type("watchlist-name", "example.com");
    act(() => (document.querySelector('input[value="products"]') as HTMLInputElement).click());
    typeInto(document.querySelector('input[id$="-slug"]') as HTMLInputElement, "akismet");
    typeInto(document.querySelector('input[id$="-version"]') as HTMLInputElement, "3.1.4");
    await submit(
      document.querySelector<HTMLFormElement>('form[aria-label="New watchlist"]') as HTMLFormElement,
    );

    const version = document.querySelector('input[id$="-version"]');
    expect(version?.getAttribute("aria-invalid")).toBe("true");
    expect(document.getElementById(version?.getAttribute("aria-describedby") ?? "")?.textContent).toBe(
      message,
    );
    expect(document.querySelector('[role="alert"]')).toBeNull();
  });
});
