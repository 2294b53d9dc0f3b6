import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { LoadThenEdit } from "./load-then-edit.tsx";

const render = (record: { isError: boolean; data: { name: string } | undefined }, className?: string) =>
  renderToStaticMarkup(
    <LoadThenEdit record={record} failure="Error fetching the account" className={className}>
      {(account) => <form aria-label="Account">{account.name}</form>}
    </LoadThenEdit>,
  );

describe("the load-then-edit shell", () => {
  it("shows the failed load, the wait, then the form with the record", () => {
    expect(render({ isError: true, data: undefined })).toBe(
      '<p role="alert" class="rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">Error fetching the account</p>',
    );
    expect(render({ isError: false, data: undefined })).toBe('<p class="text-slate-600">Loading…</p>');
    expect(render({ isError: false, data: { name: "Acme" } })).toBe('<form aria-label="Account">Acme</form>');
  });

  it("puts its own classes on the failure's and the wait's box", () => {
    expect(render({ isError: true, data: undefined }, "mt-4")).toMatch(/^<div class="mt-4"><p role="alert"/);
    expect(render({ isError: false, data: undefined }, "mt-4")).toBe(
      '<p class="mt-4 text-slate-600">Loading…</p>',
    );
  });
});
