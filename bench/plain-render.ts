import { Window } from "happy-dom";
import { createElement, type ReactNode } from "react";
import { renderToString } from "react-dom/server";

/**
 * A plain React render of a page's HTML (issue 36's yardstick): the page's markup turned into a tree of
 * React elements once, then `renderToString` of that tree timed on its own — no router, no loaders, no
 * hooks: what React alone costs to produce the same HTML.
 */

const RENAMED: Record<string, string> = {
  class: "className",
  for: "htmlFor",
  tabindex: "tabIndex",
  readonly: "readOnly",
  maxlength: "maxLength",
  minlength: "minLength",
  autocomplete: "autoComplete",
  crossorigin: "crossOrigin",
  "http-equiv": "httpEquiv",
  charset: "charSet",
  colspan: "colSpan",
  rowspan: "rowSpan",
  datetime: "dateTime",
  enctype: "encType",
  novalidate: "noValidate",
  spellcheck: "spellCheck",
  fetchpriority: "fetchPriority",
  viewbox: "viewBox",
  "stroke-width": "strokeWidth",
  "stroke-linecap": "strokeLinecap",
  "stroke-linejoin": "strokeLinejoin",
  "fill-rule": "fillRule",
  "clip-rule": "clipRule",
};

const styleOf = (text: string) =>
  Object.fromEntries(
    text
      .split(";")
      .map((declaration) => declaration.split(":"))
      .filter(([name, value]) => name?.trim() && value !== undefined)
      .map(([name, ...value]) => [
        (name ?? "").trim().replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase()),
        value.join(":").trim(),
      ]),
  );

interface DomNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
  attributes?: ArrayLike<{ name: string; value: string }>;
  innerHTML?: string;
}

function toReact(node: DomNode, key: number): ReactNode {
  if (node.nodeType === 3) return node.textContent;
  if (node.nodeType !== 1) return null;
  const tag = node.nodeName.toLowerCase();
  const props: Record<string, unknown> = { key };
  for (const { name, value } of Array.from(node.attributes ?? [])) {
    if (name === "style") props.style = styleOf(value);
    else props[RENAMED[name] ?? name] = value;
  }
  if (tag === "script" || tag === "style") {
    props.dangerouslySetInnerHTML = { __html: node.innerHTML ?? "" };
    return createElement(tag, props);
  }
  const children = Array.from(node.childNodes).map((child, index) => toReact(child, index));
  return createElement(tag, props, ...children);
}

/** The page's `<html>` element as React elements. */
export function reactTreeOf(html: string): ReactNode {
  const window = new Window();
  window.document.write(html);
  const tree = toReact(window.document.documentElement as unknown as DomNode, 0);
  void window.happyDOM.close();
  return tree;
}

/** CPU milliseconds per `renderToString` of `tree`, over `iterations` renders after two warm-ups. */
export function plainRenderCpuMs(tree: ReactNode, iterations = 50): { cpuMs: number; bytes: number } {
  let bytes = 0;
  for (let warm = 0; warm < 2; warm++) bytes = renderToString(tree).length;
  const before = process.cpuUsage();
  for (let index = 0; index < iterations; index++) renderToString(tree);
  const used = process.cpuUsage(before);
  return { cpuMs: (used.user + used.system) / 1000 / iterations, bytes };
}
