import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const APP = join(import.meta.dirname, "..");

function sourcesOf(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourcesOf(path);
    return entry.name.endsWith(".tsx") && !entry.name.endsWith(".test.tsx") ? [path] : [];
  });
}

/** Each `<form …>` element's opening tag, with the file and line it starts on. */
function formTagsOf(path: string): { where: string; tag: string }[] {
  const text = readFileSync(path, "utf8");
  return [...text.matchAll(/<(?:form|Form)(?=[\s>])[^>]*>/g)].map((match) => ({
    where: `${path.slice(APP.length + 1)}:${text.slice(0, match.index).split("\n").length}`,
    tag: match[0],
  }));
}

describe("every form of the web app", () => {
  // Issue 38: a form without a method is a GET of the page's URL when it is submitted before the
  // page's scripts run (slow network, scripts off): the PIN, a password, a report went into the URL,
  // the history, Referers and the request log. A POST without scripts gets an error page, never a leak.
  it("names its method", () => {
    const tags = sourcesOf(APP).flatMap(formTagsOf);
    expect(tags.length).toBeGreaterThan(30);
    expect(tags.filter(({ tag }) => !/\smethod="(?:post|get)"/.test(tag)).map(({ where }) => where)).toEqual(
      [],
    );
  });

  it("uses GET only to search", () => {
    const gets = sourcesOf(APP)
      .flatMap(formTagsOf)
      .filter(({ tag }) => tag.includes('method="get"'));
    expect(
      gets.every(({ tag }) => /search|Search|filter|Filter/.test(tag) || tag.includes('role="search"')),
    ).toBe(true);
  });
});
