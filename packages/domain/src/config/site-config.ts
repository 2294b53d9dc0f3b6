import { z } from "zod";

/** Spec §5: the string "false" (any case) and "0" mean false; everything else truthy is true. */
export const booleanish = z.union([z.boolean(), z.string(), z.number()]).transform((value) => {
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return value !== 0;
  const text = value.trim().toLowerCase();
  return !(text === "" || text === "false" || text === "0" || text === "no" || text === "off");
});

/** Spec §5: a url without protocol gets https:// added. */
export function withProtocol(url: string): string {
  const trimmed = url.trim().replace(/\/+$/, "");
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
}

export const SiteConfig = z.object({
  name: z.string().min(1).default("Pressguard"),
  url: z
    .string()
    .min(1, "site url is not defined")
    .transform(withProtocol)
    .pipe(z.url({ message: "site url must be a valid URL" })),
  indexable: booleanish.default(true),
  trailingSlash: booleanish.default(false),
  titleSeparator: z.string().default("|"),
});
export type SiteConfig = z.infer<typeof SiteConfig>;
export type SiteConfigInput = z.input<typeof SiteConfig>;
