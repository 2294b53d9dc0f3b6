import { micromark } from "micromark";

/**
 * A vulnerability record's description as HTML (issue 35), one renderer for the record's page, the
 * Atom feeds' entry content and any mail: the records published here are Markdown (issue 19), and the
 * imported Wordfence-derived ones mark code with backticks, separate paragraphs with blank lines and
 * sometimes link. The OSV and CSAF documents keep the text as it is.
 *
 * Safe by micromark's defaults, which are never switched off here (no `allowDangerousHtml`, no
 * `allowDangerousProtocol`): raw HTML is shown as the text it is (73 imported records hold text such
 * as `<script>` or `<br>`: data README §1.3), and a link whose URL is not http(s), mailto, irc(s) or
 * xmpp gets an empty href (`javascript:`, `data:`, `vbscript:`). The tests of description-html.test.ts
 * hold it to that, which is what lets the page insert the result as HTML.
 *
 * On top of CommonMark:
 * - No indented code blocks: imported records indent their later paragraphs (five of them) and would
 *   read as code; fenced code (```) stays.
 * - Images load nothing (a page, feed reader or mail client would fetch a third party's URL): each
 *   becomes its alt text, `[image: alt]`, as ui/markdown.tsx shows them in reports.
 * - Links open without the referrer and carry no weight: rel="nofollow noopener noreferrer",
 *   target="_blank", as ui/markdown.tsx's.
 */

const OPTIONS = { extensions: [{ disable: { null: ["codeIndented"] } }] };

/*
 * The two rewrites below read micromark's own output: it writes every `<`, `>` and `"` of the text,
 * code and attribute values as a character reference, so each `<a href="` and `<img ` in it is a tag
 * micromark made, and `>` only ends a tag.
 */
const LINK_START = '<a href="';
const SAFE_LINK_START = '<a rel="nofollow noopener noreferrer" target="_blank" href="';
const IMAGE_TAG = /<img [^>]*>/g;
const ALT_ATTRIBUTE = / alt="([^"]*)"/;

const imageText = (tag: string) => {
  const alt = ALT_ATTRIBUTE.exec(tag)?.[1];
  return `<span>${alt ? `[image: ${alt}]` : "[image]"}</span>`;
};

export function descriptionHtml(text: string): string {
  return micromark(text, OPTIONS).replaceAll(LINK_START, SAFE_LINK_START).replace(IMAGE_TAG, imageText);
}
