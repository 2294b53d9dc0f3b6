import { numericIdOf } from "@pressguard/domain";
import { AppError } from "../errors.ts";

/** A numeric id from a path parameter, or a 404 with the resource's own message. */
export function idOrNotFound(value: string, notFoundMessage: string): number {
  const id = numericIdOf(value);
  if (id === null) throw new AppError("not_found", { message: notFoundMessage });
  return id;
}
