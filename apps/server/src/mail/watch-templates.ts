import type { TemplateContents } from "./template-content.ts";

/** One line of a watchlist alert: a record that affects a watched entry, and what to do. */
export interface WatchAlertLine {
  watchlist: string;
  /** The entry: `contact-form-7 5.3.1`. */
  entry: string;
  slug: string;
  title: string;
  severity: string | null;
  /** `new`: newly published affecting it; `changed`: its severity, fix or ranges changed. */
  change: "new" | "changed";
  /** The fixed version, or null when there is no fix yet. */
  fixedIn: string | null;
  url: string;
}

/** Mail to a watchlist's owner (issue 20, decision 031). */
export type WatchMail =
  | {
      template: "watchlist_alert";
      name: string;
      alerts: WatchAlertLine[];
      /** A daily digest of a day's alerts, rather than one run's. */
      digest: boolean;
    }
  | {
      /** A watchlist's alert webhook was switched off after failing deliveries. */
      template: "watchlist_webhook_disabled";
      name: string;
      target: string;
      reason: string;
      url: string;
    };

/** What an alert tells the watcher to do, in the e-mail and the webhooks alike. */
export const watchAlertActionOf = (slug: string, fixedIn: string | null) =>
  fixedIn
    ? `Update ${slug} to ${fixedIn} or later.`
    : `No fix yet: consider deactivating ${slug} until one is out.`;

const lineOf = (alert: WatchAlertLine) =>
  `${alert.watchlist}: ${alert.entry}${alert.change === "changed" ? " (updated record)" : ""} — ${alert.title}` +
  `${alert.severity ? ` (${alert.severity})` : ""}. ${watchAlertActionOf(alert.slug, alert.fixedIn)} ${alert.url}`;

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
  watchlist_webhook_disabled: (mail) => ({
    subject: `Watchlist alerts switched off for ${mail.target}`,
    greeting: mail.name ? `Hello ${mail.name},` : "Hello,",
    paragraphs: [
      `We stopped sending your watchlist's alerts to ${mail.target}.`,
      `Reason: ${mail.reason}`,
      "Check the receiver, then enable the webhook again on the watchlist's page.",
    ],
    action: { label: "Open the watchlist", url: mail.url },
    footnote: "You received this e-mail because you own this watchlist.",
  }),
};
