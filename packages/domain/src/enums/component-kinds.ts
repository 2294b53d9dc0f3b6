import { z } from "zod";

/** Spec §3 "Component kinds: WordPress plugin, theme, core". */
export const COMPONENT_KINDS = [
  { value: "plugin", label: "WordPress plugin" },
  { value: "theme", label: "WordPress theme" },
  { value: "core", label: "WordPress core" },
] as const;

export type ComponentKind = (typeof COMPONENT_KINDS)[number]["value"];

export const ComponentKind = z.enum(
  COMPONENT_KINDS.map((kind) => kind.value) as [ComponentKind, ...ComponentKind[]],
);

export const componentKindByValue: ReadonlyMap<string, (typeof COMPONENT_KINDS)[number]> = new Map(
  COMPONENT_KINDS.map((kind) => [kind.value, kind]),
);
