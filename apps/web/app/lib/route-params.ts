import { throwNotFound } from "./errors.ts";

/** Spec §2: a program id is digits only; anything else is "Page not found". */
export function requireNumericId(value: string | undefined): string {
  if (value === undefined || !/^\d+$/.test(value)) throwNotFound();
  return value;
}
