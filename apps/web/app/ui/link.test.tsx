import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { Link, StaticPageContext } from "./link.tsx";

const render = (staticPage: boolean, to: string | { pathname: string }) =>
  renderToStaticMarkup(
    <MemoryRouter initialEntries={["/database/wordpress/plugin/akismet"]}>
      <StaticPageContext.Provider value={staticPage}>
        <Link to={to} prefetch="intent" className="underline" aria-current="page">
          Akismet
        </Link>
      </StaticPageContext.Provider>
    </MemoryRouter>,
  );

describe("a link", () => {
  it("is a plain anchor with the same attributes on a page sent without JavaScript", () => {
    expect(render(true, "/database/vdp?page=2")).toBe(
      '<a href="/database/vdp?page=2" class="underline" aria-current="page">Akismet</a>',
    );
  });

  it("is React Router's link on a hydrated page, where the router handles the click", () => {
    expect(render(false, "/database/vdp")).toBe(
      '<a class="underline" aria-current="page" href="/database/vdp" data-discover="true">Akismet</a>',
    );
  });

  it("leaves a relative or object destination to React Router, which resolves it", () => {
    expect(render(true, "vulnerabilities")).toContain('data-discover="true"');
    expect(render(true, { pathname: "/database" })).toContain('href="/database" data-discover="true"');
  });
});
