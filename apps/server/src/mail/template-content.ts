/** What every e-mail says, rendered to text and HTML by `renderMail` (templates.ts). */
export interface MailContent {
  subject: string;
  greeting: string;
  paragraphs: string[];
  /** The button and its link; none in a mail that must not carry a link (the report PIN). */
  action?: { label: string; url: string };
  footnote: string;
}

/** The variant of a mail union that a template name belongs to (some variants carry two names). */
type VariantOf<Mail, Name> = Mail extends { template: infer Names }
  ? Name extends Names
    ? Mail
    : never
  : never;

/** One content function per template of a set, each given its own variant of the mail. */
export type TemplateContents<Mail extends { template: string }> = {
  [Name in Mail["template"]]: (mail: VariantOf<Mail, Name>, siteName: string) => MailContent;
};
