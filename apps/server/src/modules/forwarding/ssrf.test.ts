import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp } from "../../test/app.ts";
import { guardedLookup, isAllowedAddress } from "./ssrf.ts";
import { startReceiver, vendorWithProgram } from "./testing.ts";
import { postWebhook } from "./webhook-client.ts";

const ALWAYS_REFUSED = [
  "10.0.0.1",
  "172.16.5.4",
  "172.31.255.255",
  "192.168.1.1",
  "169.254.169.254",
  "100.64.0.1",
  "0.0.0.0",
  "224.0.0.1",
  "255.255.255.255",
  "fe80::1",
  "fc00::1",
  "fd12:3456::1",
  "::",
  "ff02::1",
  "::ffff:10.0.0.1",
  "::ffff:169.254.169.254",
  "::ffff:192.168.0.1",
];

describe("the address check", () => {
  it.each(ALWAYS_REFUSED)("always refuses %s", (address) => {
    expect(isAllowedAddress(address, false)).toBe(false);
    expect(isAllowedAddress(address, true)).toBe(false);
  });

  /**
   * Every IPv6 spelling that carries an IPv4 address is judged as that address (issue 15, finding 5:
   * `http://[::127.0.0.1]/`, which the URL parser writes `[::7f00:1]`, reached this machine).
   */
  const CARRYING_PRIVATE_IPV4 = [
    // IPv4-compatible (::/96, deprecated), both spellings.
    "::127.0.0.1",
    "::7f00:1",
    "0:0:0:0:0:0:7f00:1",
    "::10.0.0.1",
    "::a00:1",
    "::a9fe:a9fe",
    // IPv4-mapped (::ffff:0:0/96) in hexadecimal and in full, and IPv4-translated (::ffff:0:0:0/96).
    "::ffff:7f00:1",
    "0:0:0:0:0:ffff:a00:1",
    "::ffff:0:127.0.0.1",
    "::ffff:0:a9fe:a9fe",
    // NAT64 (64:ff9b::/96).
    "64:ff9b::127.0.0.1",
    "64:ff9b::a00:1",
    "64:ff9b::a9fe:a9fe",
  ];
  it.each(CARRYING_PRIVATE_IPV4)(
    "refuses %s, an IPv6 form of a private or loopback IPv4 address",
    (address) => {
      expect(isAllowedAddress(address, false)).toBe(false);
    },
  );

  it("judges an IPv6 form as the IPv4 address it carries: loopback with the setting, public allowed", () => {
    for (const address of ["::127.0.0.1", "::7f00:1", "::ffff:0:7f00:1", "64:ff9b::7f00:1"])
      expect(isAllowedAddress(address, true), address).toBe(true);
    for (const address of ["::10.0.0.1", "64:ff9b::a00:1"])
      expect(isAllowedAddress(address, true), address).toBe(false);
    // NAT64 is how an IPv6-only network reaches a public IPv4 receiver (DNS64 answers these).
    expect(isAllowedAddress("64:ff9b::93.184.216.34", false)).toBe(true);
    expect(isAllowedAddress("64:ff9b::5db8:d822", false)).toBe(true);
  });

  it("refuses the tunnelling prefixes whatever they carry: 6to4, Teredo, local-use NAT64", () => {
    for (const address of [
      "2002:7f00:1::1",
      "2002:5db8:d822::1",
      "2001:0:4136:e378:8000:63bf:80ff:fffe",
      "2001::a2ff:ffff",
      "64:ff9b:1::a00:1",
      "64:ff9b:1::5db8:d822",
    ])
      expect(isAllowedAddress(address, true), address).toBe(false);
  });

  it("refuses loopback unless FORWARDING_ALLOW_LOOPBACK, also IPv4-mapped", () => {
    for (const address of ["127.0.0.1", "127.1.2.3", "::1", "::ffff:127.0.0.1"]) {
      expect(isAllowedAddress(address, false)).toBe(false);
      expect(isAllowedAddress(address, true)).toBe(true);
    }
  });

  it("allows public addresses", () => {
    for (const address of ["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111"])
      expect(isAllowedAddress(address, false)).toBe(true);
  });

  it("refuses a host name resolving to loopback in the connecting agent's lookup (DNS rebinding)", async () => {
    const lookup = guardedLookup(false);
    const error = await new Promise<Error | null>((resolve) =>
      lookup("localhost", { all: true }, (err) => resolve(err)),
    );
    expect(error?.name).toBe("BlockedAddressError");
  });
});

describe("sending a webhook", () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());

  const send = (url: string, allowLoopback: boolean, timeoutMs?: number) =>
    postWebhook({
      url,
      body: "{}",
      headers: { "Content-Type": "application/json" },
      allowLoopback,
      ...(timeoutMs !== undefined && { timeoutMs }),
    });

  it("refuses loopback without the setting, by IP, by mapped IPv6 and by a name (localhost)", async () => {
    const before = receiver.received.length;
    for (const url of [
      receiver.url,
      `http://localhost:${receiver.port}/hook`,
      `http://[::ffff:127.0.0.1]:${receiver.port}/hook`,
      `http://[::127.0.0.1]:${receiver.port}/hook`,
      `http://[::ffff:0:127.0.0.1]:${receiver.port}/hook`,
    ]) {
      const result = await send(url, false);
      expect(result).toMatchObject({ statusCode: null, succeeded: false });
      expect(result.excerpt).toMatch(/^Refused/);
    }
    expect(receiver.received.length).toBe(before);
    expect(await send(receiver.url, true)).toMatchObject({ statusCode: 200, succeeded: true, excerpt: "ok" });
  });

  it("connects only to checked addresses: the agent's own lookup refuses a name resolving to loopback", async () => {
    const agent = new http.Agent({ lookup: guardedLookup(false) as never });
    const error = await new Promise<Error>((resolve) =>
      http.get(`http://localhost:${receiver.port}/hook`, { agent }, () => undefined).on("error", resolve),
    );
    expect(error.name).toBe("BlockedAddressError");
  });

  it("refuses private and link-local targets even with loopback allowed", async () => {
    for (const url of [
      "http://10.1.2.3/hook",
      "http://169.254.169.254/latest/meta-data",
      "http://[fd00::1]/x",
    ])
      expect((await send(url, true)).excerpt).toMatch(/^Refused/);
  });

  it("cuts a receiver that sends headers and then hangs at the timeout", async () => {
    const hanging = await startReceiver({
      handle: (response) => {
        response.writeHead(200, { "content-type": "text/plain" });
        response.write("partial");
        return true;
      },
    });
    try {
      const result = await send(hanging.url, true, 300);
      expect(result).toMatchObject({ statusCode: null, succeeded: false });
      expect(result.excerpt).toContain("Timed out");
      expect(result.latencyMs).toBeLessThan(2_000);
    } finally {
      await hanging.close();
    }
  });

  it("does not follow a redirect", async () => {
    const redirecting = await startReceiver({
      handle: (response) => {
        response.writeHead(302, { location: receiver.url });
        response.end();
        return true;
      },
    });
    try {
      const before = receiver.received.length;
      expect(await send(redirecting.url, true)).toMatchObject({ statusCode: 302, succeeded: false });
      expect(receiver.received.length).toBe(before);
    } finally {
      await redirecting.close();
    }
  });

  it("keeps the first 1,000 characters of the response", async () => {
    const chatty = await startReceiver({
      handle: (response) => {
        response.writeHead(200);
        response.end("x".repeat(5_000));
        return true;
      },
    });
    try {
      expect((await send(chatty.url, true)).excerpt).toHaveLength(1_000);
    } finally {
      await chatty.close();
    }
  });
});

describe("saving a webhook URL", () => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await createTestApp();
  });
  afterAll(() => harness.close());

  it("accepts only public http(s) URLs without credentials", async () => {
    const vendor = await vendorWithProgram(harness.app, harness.database, `ssrf-${Date.now()}`);
    const cases: [string, string][] = [
      ["http://127.0.0.1:9/hook", "public internet address"],
      ["http://localhost:9/hook", "public internet address"],
      ["http://10.0.0.5/hook", "public internet address"],
      ["http://[::ffff:192.168.1.1]/hook", "public internet address"],
      ["http://[::127.0.0.1]/hook", "public internet address"],
      ["http://[64:ff9b::10.0.0.5]/hook", "public internet address"],
      ["ftp://93.184.216.34/hook", "https:// or http://"],
      ["https://user:secret@93.184.216.34/hook", "user name or password"],
      ["not a url", "full URL"],
    ];
    for (const [url, message] of cases) {
      const answer = await vendor.caller.post("/api/vendor/forwarding/targets/webhook", { url });
      expect(answer.statusCode, url).toBe(422);
      expect(JSON.stringify(answer.json()), url).toContain(message);
    }
    const ok = await vendor.caller.post("/api/vendor/forwarding/targets/webhook", {
      url: "https://93.184.216.34/hooks/pressguard",
      format: "slack",
    });
    expect(ok.statusCode, ok.body).toBe(201);
  });
});
