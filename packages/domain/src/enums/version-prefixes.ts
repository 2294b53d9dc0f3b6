import { z } from "zod";

/** Spec §3 "Version prefixes: <= (less than or equal), < (less than), empty (specific version)". */
export const VERSION_PREFIXES = [
  { value: "<=", label: "Less than or equal" },
  { value: "<", label: "Less than" },
  { value: "", label: "Specific version" },
] as const;

export type VersionPrefix = (typeof VERSION_PREFIXES)[number]["value"];

export const VersionPrefix = z.enum(["<=", "<", ""]);

export const versionPrefixByValue: ReadonlyMap<string, (typeof VERSION_PREFIXES)[number]> = new Map(
  VERSION_PREFIXES.map((prefix) => [prefix.value, prefix]),
);
