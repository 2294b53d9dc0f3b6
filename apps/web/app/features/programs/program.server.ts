import type { ProductDetails, ProgramDetail, ProgramFilter, ProgramPage } from "@pressguard/domain";
import { isApiError } from "../../lib/api/api-error.ts";
import { type PageInput, readForPage } from "../../lib/api/page-read.server.ts";
import { throwNotFound } from "../../lib/errors.ts";

/**
 * The signed-in vendor's program `id`, read on the server before its page renders. The API answers
 * only the vendor's own programs: another vendor's id, or one that names no program, is the
 * specification's "Page not found" (HTTP 404), never a page that fails to load in the browser.
 */
export async function requireOwnProgram(input: PageInput, id: string): Promise<ProgramDetail> {
  try {
    return await readForPage(input, "/products/:id", { id }, undefined, { as: "visitor" });
  } catch (error) {
    if (isApiError(error) && [403, 404, 422].includes(error.status)) throwNotFound();
    throw error;
  }
}

/**
 * The first page of a program list tab and the counters, read on the server so that the page shows
 * them without a request from the browser (the Lighthouse run of issue 35 waited on both). `null` when
 * the API refuses the visitor (anonymous, or a token the server cannot see: the page's guard decides
 * what they get) or fails: the browser then asks for itself, and shows the list's error if it fails too.
 */
export function readProgramListSeed(input: PageInput, filter: ProgramFilter): Promise<ProgramPage | null> {
  return orNull(readForPage(input, "/products", {}, { filter, page: 1 }, { as: "visitor" }));
}

export function readProgramDetailsSeed(input: PageInput): Promise<ProductDetails | null> {
  return orNull(readForPage(input, "/products/details", {}, undefined, { as: "visitor" }));
}

function orNull<T>(read: Promise<T>): Promise<T | null> {
  return read.catch((error: unknown) => {
    if (isApiError(error)) return null;
    throw error;
  });
}
