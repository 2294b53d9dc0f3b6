import type { Plugin } from "vite";

/** Marks the top-level constants of the modules `include` accepts as pure, in the browser build. */
export function pureDeclarations(include: (id: string) => boolean): Plugin;
