/**
 * Document headers of a page whose URL carries a secret (an e-mailed preview link's `?token=`):
 * no Referer at all, so the URL never leaves the page with a link, a form or a subresource. The
 * site-wide Referrer-Policy (strict-origin-when-cross-origin) would still send it to our own origin.
 */
export function secretUrlHeaders() {
  return { "Referrer-Policy": "no-referrer" };
}
