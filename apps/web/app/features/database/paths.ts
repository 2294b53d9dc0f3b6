/** Page paths of the public database (apps/web/app/routes.ts). */
type ProductPath = { platform: string; kind: string; slug: string };

const productBase = (product: ProductPath) =>
  `/database/${encodeURIComponent(product.platform)}/${encodeURIComponent(product.kind)}/${encodeURIComponent(product.slug)}`;

export const databasePaths = {
  product: (product: ProductPath) => `${productBase(product)}/vulnerabilities/vdp`,
  contributors: (product: ProductPath) => `${productBase(product)}/security-contributors/vdp`,
  /** The product's Atom feed (served by the API server, apps/server/src/modules/feeds). */
  feed: (product: ProductPath) => `${productBase(product)}/feed`,
  vulnerability: (product: ProductPath, slug: string) =>
    `${productBase(product)}/vulnerability/${encodeURIComponent(slug)}`,
  researcher: (uuid: string) => `/database/researchers/${encodeURIComponent(uuid)}`,
};
