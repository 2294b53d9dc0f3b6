import { z } from "zod";
import { optionalUrl, URL_MESSAGE } from "../schemas/fields.ts";

/** The link a vendor may give with a fix (a release, a commit, a changelog): issue 7. */
export const FIX_URL_MAX_LENGTH = 2000;
export const FIX_URL_TOO_LONG = `The link must be at most ${FIX_URL_MAX_LENGTH.toLocaleString("en-US")} characters long.`;

/** An optional http(s) link (the shared URL rule), at most FIX_URL_MAX_LENGTH long; blank is null. */
export function fixUrlField() {
  return z
    .string({ error: URL_MESSAGE })
    .trim()
    .max(FIX_URL_MAX_LENGTH, { error: FIX_URL_TOO_LONG })
    .nullish()
    .pipe(optionalUrl());
}
