import { LOGIN_LINK, PRICING_LINK } from "../lib/navigation.ts";
import { useRootLoaderData } from "../lib/public-config.ts";
import { homePathFor } from "../lib/session-user.ts";
import { Logo } from "../ui/logo.tsx";
import { MenuLink } from "./menu-link.tsx";
import { SolutionsMenu } from "./solutions-menu.tsx";

/**
 * The public header (spec §2): Pricing, Solutions (dropdown) and Login; for a signed-in visitor (known
 * to the server: cookie mode, or the token in its cookie) "Your account" to their home instead
 * (issue 19: the public pages said "Login" to signed-in users).
 */
export function SiteHeader() {
  const user = useRootLoaderData()?.user ?? null;
  const account = user ? { label: "Your account", to: homePathFor(user) } : LOGIN_LINK;
  return (
    <header data-theme="dark" className="bg-slate-950 text-white">
      <div className="page-container flex h-16 items-center justify-between gap-4">
        <Logo compact />
        <nav aria-label="Main">
          <ul className="flex items-center gap-1 sm:gap-3">
            <li>
              <MenuLink
                item={PRICING_LINK}
                className="inline-flex rounded-md px-2 py-2 text-sm font-medium text-slate-200 hover:text-white sm:px-3"
              />
            </li>
            <li>
              <SolutionsMenu />
            </li>
            <li>
              <MenuLink item={account} className="btn-brand ml-1" currentClassName="ring-2 ring-white/60" />
            </li>
          </ul>
        </nav>
      </div>
    </header>
  );
}
