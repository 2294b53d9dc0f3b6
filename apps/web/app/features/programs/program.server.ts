import type { ProgramDetail } from "@pressguard/domain";
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
