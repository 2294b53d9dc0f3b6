/**
 * Structured data for search engines: a `<script type="application/ld+json">` data block. The
 * browser never runs it (a data block is not a script), so the Content-Security-Policy's script
 * rules do not apply; what matters is that no text can end the element early.
 */

/** `<` (so `</script>` cannot close the element), `>`, `&`, and the two JavaScript line terminators. */
const UNSAFE_IN_SCRIPT = /[<>&\u2028\u2029]/g;

/** JSON with those characters as `\u` escapes: the same value to a JSON parser, inert to the HTML one. */
export function serializeJsonLd(data: unknown): string {
  return JSON.stringify(data).replace(
    UNSAFE_IN_SCRIPT,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

export function JsonLd({ data }: { data: object }) {
  return (
    <script
      type="application/ld+json"
      // biome-ignore lint/security/noDangerouslySetInnerHtml: React would entity-escape text children, which a script element does not decode; serializeJsonLd escapes what could end the element.
      dangerouslySetInnerHTML={{ __html: serializeJsonLd(data) }}
    />
  );
}
