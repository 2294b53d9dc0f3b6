import { describe, expect, it } from "vitest";
import { contactRoutesOf } from "./service.ts";

const base = {
  id: 1,
  platform: "wordpress",
  kind: "plugin",
  slug: "opening-hours",
  name: "We're Open!",
  has_active_program: false,
  email: null,
  author_profile: null,
  contributors: null,
};

describe("the routes to a vendor staff are shown (issue 19)", () => {
  it("lists an imported product's WordPress.org page once, with its author, and no security.txt of wordpress.org", () => {
    const routes = contactRoutesOf({
      ...base,
      author: "Noah Hearle, Design Extreme",
      product_url: "https://wordpress.org/plugins/opening-hours/",
      directory_url: "https://wordpress.org/plugins/opening-hours/",
      vendor_website_url: "https://wordpress.org/plugins/opening-hours/",
    });
    expect(routes.map((route) => [route.kind, route.text])).toEqual([
      ["directory_page", "https://wordpress.org/plugins/opening-hours/"],
      ["author", "Noah Hearle, Design Extreme"],
    ]);
  });

  it("lists a vendor's own sites and where their security.txt would be, each origin once", () => {
    const routes = contactRoutesOf({
      ...base,
      author: null,
      product_url: "https://acme.example/plugins/gallery",
      directory_url: null,
      vendor_website_url: "https://acme.example",
    });
    expect(routes.map((route) => [route.kind, route.url])).toEqual([
      ["plugin_site", "https://acme.example/plugins/gallery"],
      ["vendor_site", "https://acme.example"],
      ["security_txt", "https://acme.example/.well-known/security.txt"],
    ]);
    // A URL that is not http(s) gets no security.txt guess.
    expect(
      contactRoutesOf({
        ...base,
        author: null,
        product_url: "ftp://x",
        directory_url: null,
        vendor_website_url: null,
      }).filter((route) => route.kind === "security_txt"),
    ).toEqual([]);
  });
});
