/** Spec §3 "Version prefixes: <= (less than or equal), < (less than), empty (specific version)". */
export const VERSION_PREFIXES = [
  { value: "<=", label: "Less than or equal" },
  { value: "<", label: "Less than" },
  { value: "", label: "Specific version" },
] as const;

export const versionPrefixByValue: ReadonlyMap<string, (typeof VERSION_PREFIXES)[number]> = new Map(
  VERSION_PREFIXES.map((prefix) => [prefix.value, prefix]),
);
