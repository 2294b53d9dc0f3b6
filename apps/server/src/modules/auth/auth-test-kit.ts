import type { createTestApp } from "../../test/app.ts";

/** What the tests of sign-in and accounts share: the development mailbox's mail and links. */

export type Harness = Awaited<ReturnType<typeof createTestApp>>;

interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  template: string;
}

/** The mail to an address and the link it carries, on the harness of the calling test file (set in its beforeAll). */
export function mailboxOf(harnessOf: () => Harness) {
  async function mailsTo(email: string): Promise<Mail[]> {
    const response = await harnessOf().app.inject({ method: "GET", url: "/api/dev/mail?limit=200" });
    return response.json<{ data: Mail[] }>().data.filter((mail) => mail.to === email);
  }

  async function linkIn(email: string, template: string): Promise<string> {
    const mail = (await mailsTo(email)).find((entry) => entry.template === template);
    const url = mail?.text.match(/https?:\/\/\S+/)?.[0];
    if (!url) throw new Error(`no ${template} mail to ${email}`);
    return url;
  }

  return { mailsTo, linkIn };
}
