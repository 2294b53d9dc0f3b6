import type { TemplateContents } from "./template-content.ts";

/** A vendor's notice to the users of its product (issue 20, CRA Art. 14(8)), to each watcher. */
export interface NoticeMail {
  template: "product_user_notice";
  name: string;
  vendorName: string;
  productName: string;
  /** The vendor's message, plain text; blank lines separate its paragraphs. */
  message: string;
  /** The product's page in the public database. */
  url: string;
}

/** The message's paragraphs, each on one line of the e-mail. */
const paragraphsOf = (message: string) =>
  message
    .split(/\r?\n\s*\r?\n/)
    .map((paragraph) => paragraph.replace(/\s*\r?\n\s*/g, " ").trim())
    .filter((paragraph) => paragraph !== "");

export const noticeTemplates: TemplateContents<NoticeMail> = {
  product_user_notice: (mail, siteName) => ({
    subject: `Security notice from ${mail.vendorName} about ${mail.productName}`,
    greeting: mail.name ? `Hello ${mail.name},` : "Hello,",
    paragraphs: [
      `${mail.vendorName}, the vendor of ${mail.productName}, sends this security notice to its users through ${siteName}. Their message:`,
      ...paragraphsOf(mail.message),
    ],
    action: { label: `Open ${mail.productName} on ${siteName}`, url: mail.url },
    footnote: `You receive this e-mail because a watchlist of your account watches ${mail.productName}. Remove it from your watchlists to stop these notices.`,
  }),
};
