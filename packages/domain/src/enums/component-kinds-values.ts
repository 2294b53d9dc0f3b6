/** Spec §3 "Component kinds: WordPress plugin, theme, core". */
export const COMPONENT_KINDS = [
  { value: "plugin", label: "WordPress plugin" },
  { value: "theme", label: "WordPress theme" },
  { value: "core", label: "WordPress core" },
] as const;

export const componentKindByValue: ReadonlyMap<string, (typeof COMPONENT_KINDS)[number]> = new Map(
  COMPONENT_KINDS.map((kind) => [kind.value, kind]),
);
