import type { TemplateContents } from "./template-content.ts";

/** Mail about an account and its credentials: sign-in links, verification, password reset and change notices. */
export type AccountMail =
  | { template: "magic_link"; name: string; url: string }
  | { template: "email_verification"; name: string; url: string }
  | { template: "password_reset"; name: string; url: string }
  | {
      /** Someone registered with an address that has an account (issue 15: the answer does not say so). */
      template: "registration_attempt";
      name: string;
      signInUrl: string;
      resetUrl: string;
    }
  | {
      /**
       * The account's password was changed or reset (ASVS 2.2.3: a notice after any change of a
       * credential), so that an owner who did not do it learns of it and can take the account back.
       */
      template: "password_changed";
      name: string;
      /** When, ISO 8601. */
      changedAt: string;
      how: "changed" | "reset";
      resetUrl: string;
    };

export const accountTemplates: TemplateContents<AccountMail> = {
  magic_link: (mail, siteName) => ({
    subject: `Your ${siteName} sign-in link`,
    greeting: `Hello ${mail.name},`,
    paragraphs: ["Use the link below to sign in. It works once and expires in 15 minutes."],
    action: { label: "Sign in", url: mail.url },
    footnote: "If you did not ask for this link, you can ignore this e-mail.",
  }),
  email_verification: (mail, siteName) => ({
    subject: `Confirm your e-mail address for ${siteName}`,
    greeting: `Hello ${mail.name},`,
    paragraphs: [
      "Please confirm your e-mail address. Reports and program activation need a confirmed address.",
    ],
    action: { label: "Confirm e-mail address", url: mail.url },
    footnote: "If you did not create an account, you can ignore this e-mail.",
  }),
  registration_attempt: (mail, siteName) => ({
    subject: `Someone tried to create a ${siteName} account with your address`,
    greeting: `Hello ${mail.name},`,
    paragraphs: [
      "Someone tried to register with your e-mail address, which already has an account. No new account was created.",
      `If it was you, sign in with the link below. If you forgot your password, reset it at ${mail.resetUrl}`,
    ],
    action: { label: "Sign in", url: mail.signInUrl },
    footnote: "If it was not you, you can ignore this e-mail: your account has not changed.",
  }),
  password_changed: (mail, siteName) => ({
    subject: `Your ${siteName} password was ${mail.how}`,
    greeting: `Hello ${mail.name},`,
    paragraphs: [
      `The password of your ${siteName} account was ${mail.how === "reset" ? "reset with an e-mailed link" : "changed"} on ${mail.changedAt.slice(0, 16).replace("T", " ")} (UTC). Every other session and API token of the account was signed out.`,
      "If it was not you, someone else knows your password or can read your e-mail: choose a new password with the link below at once, then check your e-mail account's security.",
    ],
    action: { label: "Reset password", url: mail.resetUrl },
    footnote: "If it was you, no action is needed.",
  }),
  password_reset: (mail, siteName) => ({
    subject: `Reset your ${siteName} password`,
    greeting: `Hello ${mail.name},`,
    paragraphs: ["Use the link below to choose a new password. It works once and expires in 60 minutes."],
    action: { label: "Reset password", url: mail.url },
    footnote: "If you did not ask for a password reset, no action is needed.",
  }),
};
