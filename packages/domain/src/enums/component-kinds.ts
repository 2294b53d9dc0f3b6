import { z } from "zod";
import { COMPONENT_KINDS } from "./component-kinds-values.ts";

// The list and its lookup live apart from the schema, so a page that renders them loads no zod (issue 35).
export { COMPONENT_KINDS, componentKindByValue } from "./component-kinds-values.ts";

export type ComponentKind = (typeof COMPONENT_KINDS)[number]["value"];

export const ComponentKind = z.enum(
  COMPONENT_KINDS.map((kind) => kind.value) as [ComponentKind, ...ComponentKind[]],
);
