import { numericIdOf } from "@pressguard/domain";
import { throwNotFound } from "./errors.ts";

/** Spec §2: a program id is digits only; anything else is "Page not found". */
export function requireNumericId(value: string | undefined): string {
  if (numericIdOf(value) === null) throwNotFound();
  return value as string;
}
