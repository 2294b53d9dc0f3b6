import { z } from "zod";
import { SLUG_PATTERN } from "./slug.ts";

/** Spec §5 wording, shared by every form and API schema that has a URL or e-mail field. */
export const URL_MESSAGE = "The URL must be a valid URL including the http(s):// protocol.";
export const EMAIL_MESSAGE = "Must be a valid email address.";
export const SLUG_MESSAGE =
  "Slug must be lowercase letters and digits in groups joined by single hyphens (for example my-plugin).";

/** An absolute http:// or https:// URL with a host and no whitespace. */
export function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\/\S+$/i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}

/** A required slug (spec §5): `requiredMessage` when blank, {@link SLUG_MESSAGE} when malformed. */
export function requiredSlug(requiredMessage: string) {
  return requiredText(requiredMessage).regex(SLUG_PATTERN, { error: SLUG_MESSAGE });
}

/** A required text: missing, not a string, or blank after trimming all give `message`. */
export function requiredText(message: string) {
  return z.string({ error: message }).trim().min(1, { error: message, abort: true });
}

/** A required http(s) URL: `requiredMessage` when blank, the spec's URL rule otherwise. */
export function requiredUrl(requiredMessage: string) {
  return requiredText(requiredMessage).refine(isHttpUrl, { error: URL_MESSAGE });
}

/** Maps a missing or blank string to null, so optional fields store null rather than "". */
function blankToNull(value: string | null | undefined): string | null {
  return value === undefined || value === null || value === "" ? null : value;
}

/** An optional http(s) URL: blank or missing becomes null, anything else follows the URL rule. */
export function optionalUrl() {
  return z
    .string({ error: URL_MESSAGE })
    .trim()
    .nullish()
    .transform(blankToNull)
    .pipe(z.string().refine(isHttpUrl, { error: URL_MESSAGE }).nullable());
}

/** An optional e-mail address: blank or missing becomes null (spec §5 vendor contact email). */
export function optionalEmail() {
  return z
    .string({ error: EMAIL_MESSAGE })
    .trim()
    .nullish()
    .transform(blankToNull)
    .pipe(z.email({ error: EMAIL_MESSAGE }).nullable());
}

/** An optional free text: blank or missing becomes null. */
export function optionalText() {
  return z.string().trim().nullish().transform(blankToNull);
}

/** A required e-mail address. */
export function requiredEmail(requiredMessage: string) {
  return requiredText(requiredMessage).pipe(z.email({ error: EMAIL_MESSAGE }));
}
