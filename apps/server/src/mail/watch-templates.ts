import type { TemplateContents } from "./template-content.ts";

/** One line of a watchlist alert: a record that affects a watched entry, and what to do. */
export interface WatchAlertLine {
  watchlist: string;
  /** The entry: `contact-form-7 5.3.1`. */
  entry: string;
  title: string;
  severity: string | null;
  /** `new`: newly published affecting it; `changed`: its severity, fix or ranges changed. */
  change: "new" | "changed";
  /** The fixed version, or null when there is no fix yet. */
  fixedIn: string | null;
  url: string;
}

/** Mail to a watchlist's owner (issue 20, decision 031). */
export type WatchMail = {
  template: "watchlist_alert";
  name: string;
  alerts: WatchAlertLine[];
  /** A daily digest of a day's alerts, rather than one run's. */
  digest: boolean;
};

const lineOf = (alert: WatchAlertLine) =>
  `${alert.watchlist}: ${alert.entry}${alert.change === "changed" ? " (updated record)" : ""} — ${alert.title}` +
  `${alert.severity ? ` (${alert.severity})` : ""}. ` +
  `${alert.fixedIn ? `Update to ${alert.fixedIn} or later.` : "No fix yet: consider disabling it until one is out."} ` +
  alert.url;

export const watchTemplates: TemplateContents<WatchMail> = {
  watchlist_alert: (mail) => ({
    subject: mail.digest
      ? `Your daily watchlist digest: ${mail.alerts.length} ${mail.alerts.length === 1 ? "vulnerability" : "vulnerabilities"} to act on`
      : mail.alerts.length === 1
        ? `A vulnerability affects ${mail.alerts[0]?.entry} on ${mail.alerts[0]?.watchlist}`
        : `${mail.alerts.length} vulnerabilities affect your watched sites`,
    greeting: mail.name ? `Hello ${mail.name},` : "Hello,",
    paragraphs: [
      "A vulnerability that affects the installed version of something you watch was published or changed:",
      ...mail.alerts.map(lineOf),
    ],
    footnote:
      "You receive these e-mails because a watchlist of your account has alerts on. Turn them off per watchlist.",
  }),
};
