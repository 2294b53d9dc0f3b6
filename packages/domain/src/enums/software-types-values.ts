/** Spec §3 "Software types: plugin, theme" (what a vendor program can be; core has no vendor). */
export const SOFTWARE_TYPES = [
  { value: "plugin", label: "Plugin" },
  { value: "theme", label: "Theme" },
] as const;

export const softwareTypeByValue: ReadonlyMap<string, (typeof SOFTWARE_TYPES)[number]> = new Map(
  SOFTWARE_TYPES.map((type) => [type.value, type]),
);
