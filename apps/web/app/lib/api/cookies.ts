/** Reading cookies from a `Cookie` header or `document.cookie`, and from `Set-Cookie` lines. */

/** `a=1; b=2` → Map { a → "1", b → "2" }; values are URL-decoded when they can be. */
export function parseCookieHeader(header: string | null | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  if (!header) return cookies;
  for (const part of header.split(";")) {
    const separator = part.indexOf("=");
    if (separator <= 0) continue;
    const name = part.slice(0, separator).trim();
    const raw = part.slice(separator + 1).trim();
    if (!name || cookies.has(name)) continue;
    cookies.set(name, safeDecode(raw));
  }
  return cookies;
}

/** The name and (decoded) value of one `Set-Cookie` line, ignoring its attributes. */
export function parseSetCookie(line: string): { name: string; value: string } | null {
  const pair = line.split(";", 1)[0] ?? "";
  const separator = pair.indexOf("=");
  if (separator <= 0) return null;
  return { name: pair.slice(0, separator).trim(), value: safeDecode(pair.slice(separator + 1).trim()) };
}

/** Serialises cookies back into one `Cookie` header value. */
export function serializeCookies(cookies: Map<string, string>): string {
  return [...cookies].map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join("; ");
}

function safeDecode(value: string): string {
  const unquoted = value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
  try {
    return decodeURIComponent(unquoted);
  } catch {
    return unquoted;
  }
}
