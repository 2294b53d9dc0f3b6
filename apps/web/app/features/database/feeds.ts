import { productNameFromSlug } from "../../lib/database-params.ts";
import type { FeedLink } from "../../lib/seo.ts";
import { databasePaths } from "./paths.ts";

type ProductParams = Record<string, string | undefined>;

/**
 * The Atom feed of the product a page's path names (`:platform/:kind/:product`), for the page's
 * meta: feed readers find it from any of the product's pages. `name` is the product's name when the
 * page has it, else one made from the slug.
 */
export function productFeeds(params: ProductParams, name?: string): FeedLink[] {
  const { platform, kind, product } = params;
  if (!platform || !kind || !product) return [];
  return [
    {
      title: `${name ?? productNameFromSlug(product)} vulnerabilities`,
      path: databasePaths.feed({ platform, kind, slug: product }),
    },
  ];
}
