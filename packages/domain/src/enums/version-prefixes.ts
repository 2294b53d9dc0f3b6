import { z } from "zod";
import type { VERSION_PREFIXES } from "./version-prefixes-values.ts";

// The list and its lookups live apart from the schema, so a page that renders them loads no zod (issue 35).
export { VERSION_PREFIXES, versionPrefixByValue } from "./version-prefixes-values.ts";

export type VersionPrefix = (typeof VERSION_PREFIXES)[number]["value"];

export const VersionPrefix = z.enum(["<=", "<", ""]);
