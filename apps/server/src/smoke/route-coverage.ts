import type { RouteConfigEntry } from "@react-router/dev/routes";
import { matchPath } from "react-router";

/** Every URL pattern of a React Router route table, optional segments expanded (`a/:b?` → `/a`, `/a/:b`). */
export function routePatternsOf(entries: RouteConfigEntry[], parent = ""): string[] {
  const patterns: string[] = [];
  for (const entry of entries) {
    const path = entry.path ? `${parent}/${entry.path}`.replace(/\/+/g, "/") : parent;
    if (entry.children) patterns.push(...routePatternsOf(entry.children, path));
    else if (entry.index || entry.path) patterns.push(...expandOptionalSegments(path || "/"));
  }
  return [...new Set(patterns)];
}

function expandOptionalSegments(pattern: string): string[] {
  const segments = pattern.split("/");
  const optional = segments.findIndex((segment) => segment.endsWith("?"));
  if (optional === -1) return [pattern];
  const without = [...segments.slice(0, optional), ...segments.slice(optional + 1)].join("/") || "/";
  const withIt = segments.map((segment, index) => (index === optional ? segment.slice(0, -1) : segment));
  return [...expandOptionalSegments(without), ...expandOptionalSegments(withIt.join("/"))];
}

/** The patterns no concrete path matches (the splat `*` matches anything and is left out). */
export function uncoveredPatterns(patterns: string[], paths: string[]): string[] {
  return patterns.filter(
    (pattern) =>
      pattern !== "/*" &&
      !paths.some((path) => matchPath({ path: pattern, end: true }, new URL(path, "http://x").pathname)),
  );
}
