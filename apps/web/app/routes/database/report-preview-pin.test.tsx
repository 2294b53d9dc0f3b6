import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { developmentPublicConfig } from "../../lib/request-context.server.ts";
import ReportPreviewPinPage, { action } from "./report-preview-pin.tsx";

/**
 * Issue 38: the PIN form posts to its route's action (with or without JavaScript); the action calls the
 * API from the server, hands its HttpOnly preview cookie to the browser and redirects, or renders the
 * page again with the API's refusal. The PIN never travels in a URL.
 */

const REPORT = "4d4b1c0e-7d1a-4c8b-9a35-2f1e0c3b5a77";
const PAGE = `http://site.test/database/report-preview/${REPORT}/pin`;
const PREVIEW_COOKIE = `pressguard_report_preview=signed.credential; Max-Age=3600; Path=/api/report-previews/${REPORT}; HttpOnly; SameSite=Strict`;
const context = {
  publicConfig: developmentPublicConfig("http://site.test"),
  apiOrigin: "http://api.test",
  apiHeaders: { "x-pressguard-internal": "secret" },
  visitorApiHeaders: { "x-pressguard-internal": "secret", "x-pressguard-visitor": "203.0.113.9" },
};

interface Call {
  url: string;
  method: string;
  headers: Headers;
  body: unknown;
}

/** The API: the CSRF cookie, then the PIN's answer. */
function stubApi(pinAnswer: () => Response) {
  const calls: Call[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = String(input);
      calls.push({
        url,
        method: init.method ?? "GET",
        headers: new Headers(init.headers),
        body: typeof init.body === "string" ? JSON.parse(init.body) : init.body,
      });
      if (url.endsWith("/csrf-cookie"))
        return new Response(null, { status: 204, headers: { "set-cookie": "XSRF-TOKEN=xsrf; Path=/" } });
      return pinAnswer();
    }),
  );
  return calls;
}

function post(pin: string) {
  return action({
    request: new Request(PAGE, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ pin }).toString(),
    }),
    context,
    params: { uuid: REPORT },
  } as unknown as Parameters<typeof action>[0]);
}

/** What `data()` returns: the value and its status and headers. */
interface DataAnswer {
  type: "DataWithResponseInit";
  data: { errors: Record<string, string[]> };
  init: { status: number; headers?: Headers };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the PIN page's action", () => {
  it("checks the PIN with the API from the server and hands its preview cookie to the browser with a 303", async () => {
    const calls = stubApi(() =>
      Response.json(
        { expires_at: "2027-01-01T00:00:00.000Z" },
        {
          headers: { "set-cookie": PREVIEW_COOKIE },
        },
      ),
    );
    const answer = (await post("822 711")) as Response;
    expect(answer).toBeInstanceOf(Response);
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe(`/database/report-preview/${REPORT}/preview`);
    // The API's cookie unchanged (its path, HttpOnly and SameSite), and a copy for the report's pages,
    // whose server render sends it on to the API; the PIN is in no URL.
    expect(answer.headers.getSetCookie()).toEqual([
      PREVIEW_COOKIE,
      PREVIEW_COOKIE.replace(
        `Path=/api/report-previews/${REPORT}`,
        `Path=/database/report-preview/${REPORT}`,
      ),
    ]);
    expect(answer.headers.get("location")).not.toContain("822");

    const pinCall = calls.find((call) => call.method === "POST");
    expect(pinCall?.url).toBe(`http://api.test/api/report-previews/${REPORT}/pin`);
    expect(pinCall?.body).toEqual({ pin: "822711" });
    // Cookie mode: the CSRF pair; and the call is counted on the visitor's address, not the server's.
    expect(pinCall?.headers.get("x-xsrf-token")).toBe("xsrf");
    expect(pinCall?.headers.get("cookie")).toContain("XSRF-TOKEN=xsrf");
    expect(pinCall?.headers.get("x-pressguard-visitor")).toBe("203.0.113.9");
  });

  it("answers a wrong PIN with the page and the tries left (422)", async () => {
    stubApi(() =>
      Response.json(
        { status: "error", message: "Invalid", errors: { pin: ["The PIN is not correct. 4 tries left."] } },
        { status: 422 },
      ),
    );
    const answer = (await post("000000")) as unknown as DataAnswer;
    expect(answer.init.status).toBe(422);
    expect(answer.data.errors).toEqual({ pin: ["The PIN is not correct. 4 tries left."] });
  });

  it("answers a locked report with its message, 429 and the API's Retry-After", async () => {
    const message = "Too many wrong PINs: the report is locked until 12:15 UTC. Try again in 15 minutes.";
    stubApi(() =>
      Response.json({ status: "error", message }, { status: 429, headers: { "retry-after": "900" } }),
    );
    const answer = (await post("000000")) as unknown as DataAnswer;
    expect(answer.init.status).toBe(429);
    expect(answer.init.headers?.get("retry-after")).toBe("900");
    expect(answer.data.errors).toEqual({ _form: [message] });
  });

  it("says an unknown link opens no report (404)", async () => {
    stubApi(() => Response.json({ status: "error", message: "Not found" }, { status: 404 }));
    const answer = (await post("123456")) as unknown as DataAnswer;
    expect(answer.init.status).toBe(404);
    expect(answer.data.errors._form?.[0]).toMatch(/^This link does not open a report\./);
  });

  it("refuses a malformed PIN without asking the API (it would not count a try anyway)", async () => {
    const calls = stubApi(() => new Response(null, { status: 500 }));
    const answer = (await post("12ab")) as unknown as DataAnswer;
    expect(answer.init.status).toBe(422);
    expect(answer.data.errors).toEqual({ pin: ["Enter the 6-digit PIN from the e-mail."] });
    expect(calls).toEqual([]);
  });
});

describe("the PIN page", () => {
  const render = (actionData?: unknown) => {
    const Stub = createRoutesStub([
      {
        id: "routes/database/report-preview-pin",
        path: "/database/report-preview/:uuid/pin",
        Component: ReportPreviewPinPage as never,
        action: () => null,
      },
    ]);
    return renderToString(
      <Stub
        initialEntries={[`/database/report-preview/${REPORT}/pin`]}
        hydrationData={{ actionData: { "routes/database/report-preview-pin": actionData } }}
      />,
    );
  };

  it("posts its form (no PIN in a URL, works without JavaScript)", () => {
    const html = render();
    const form = /<form[^>]*>/.exec(html)?.[0] ?? "";
    expect(form).toContain('method="post"');
    expect(form).toContain(`action="/database/report-preview/${REPORT}/pin"`);
    expect(html).toContain('name="pin"');
  });

  it("shows the action's refusal in the server-rendered page", () => {
    const html = render({ errors: { pin: ["The PIN is not correct. 4 tries left."] } });
    expect(html).toContain("The PIN is not correct. 4 tries left.");
    expect(html).toContain('aria-invalid="true"');
    const locked = render({
      errors: { _form: ["Too many wrong PINs: the report is locked until 12:15 UTC."] },
    });
    expect(locked).toContain("Too many wrong PINs: the report is locked until 12:15 UTC.");
  });
});
