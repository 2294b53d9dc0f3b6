import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { LoadMoreButton, LoadMoreTable, type PagedList } from "./load-more-table.tsx";

const list = (overrides: Partial<PagedList> = {}): PagedList => ({
  hasNextPage: true,
  isFetchingNextPage: false,
  fetchNextPage: () => undefined,
  ...overrides,
});

describe("the paged table", () => {
  it("renders its column headers and rows, then 'Load more' while there is a next page", () => {
    const html = renderToStaticMarkup(
      <LoadMoreTable columns={[{ label: "Report" }, { label: "Received", nowrap: true }]} list={list()}>
        <tr>
          <td>First report</td>
          <td>2026-01-01</td>
        </tr>
      </LoadMoreTable>,
    );
    expect(html).toContain('<th scope="col" class="px-4 py-3">Report</th>');
    expect(html).toContain('<th scope="col" class="px-4 py-3 whitespace-nowrap">Received</th>');
    expect(html).toContain("<td>First report</td>");
    expect(html).toMatch(/<button type="button" class="btn-secondary mt-4">Load more<\/button>$/);
  });

  it("says it is loading while the next page comes, and offers nothing on the last page", () => {
    const loading = renderToStaticMarkup(<LoadMoreButton list={list({ isFetchingNextPage: true })} />);
    expect(loading).toBe('<button type="button" class="btn-secondary mt-4" disabled="">Loading…</button>');
    expect(renderToStaticMarkup(<LoadMoreButton list={list({ hasNextPage: false })} />)).toBe("");
  });
});
