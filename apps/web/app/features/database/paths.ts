/** Page paths of the public database (apps/web/app/routes.ts). */
type ProductPath = { platform: string; kind: string; slug: string };

const productBase = (product: ProductPath) =>
  `/database/${encodeURIComponent(product.platform)}/${encodeURIComponent(product.kind)}/${encodeURIComponent(product.slug)}`;

export const databasePaths = {
  product: (product: ProductPath) => `${productBase(product)}/vulnerabilities/vdp`,
  contributors: (product: ProductPath) => `${productBase(product)}/security-contributors/vdp`,
  vulnerability: (product: ProductPath, slug: string) =>
    `${productBase(product)}/vulnerability/${encodeURIComponent(slug)}`,
  researcher: (uuid: string) => `/database/researchers/${encodeURIComponent(uuid)}`,
};

/** "2024-06-13T06:00:02Z" → "13 June 2024", the same on the server and in every browser. */
export function formatDate(value: string | null): string | null {
  if (!value) return null;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  return date.toLocaleDateString("en-GB", {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });
}
