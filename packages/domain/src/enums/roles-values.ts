/**
 * WordPress roles, used as the privilege a vulnerability requires (spec §3, codes fixed there).
 * `slug` is the role's WordPress name; Unauthenticated is not a WordPress role but the absence of one.
 */
export const WORDPRESS_ROLES = [
  { code: 1, slug: "unauthenticated", label: "Unauthenticated" },
  { code: 2, slug: "subscriber", label: "Subscriber" },
  { code: 3, slug: "contributor", label: "Contributor" },
  { code: 4, slug: "author", label: "Author" },
  { code: 5, slug: "editor", label: "Editor" },
  { code: 6, slug: "administrator", label: "Administrator" },
  { code: 7, slug: "super_admin", label: "Super admin" },
  { code: 8, slug: "shop_manager", label: "Shop manager" },
  { code: 9, slug: "customer", label: "Customer" },
] as const;

export type WordPressRole = (typeof WORDPRESS_ROLES)[number];

export const wordPressRoleByCode: ReadonlyMap<number, WordPressRole> = new Map(
  WORDPRESS_ROLES.map((role) => [role.code, role]),
);
