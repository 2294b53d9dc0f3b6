import { z } from "zod";
import { parseCvssVector } from "./cvss.ts";

// Apart from the parser, so a page that scores a vector as it is typed loads no zod (issue 35).
/** A CVSS 3.x vector field (API bodies, the report form); trimmed, rejected unless it parses. */
export const CvssVector = z
  .string()
  .trim()
  .refine((value) => parseCvssVector(value).ok, { message: "Must be a valid CVSS 3.0 or 3.1 vector." });
