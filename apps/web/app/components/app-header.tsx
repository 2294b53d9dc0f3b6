import type { ReactNode } from "react";
import { useIdentity } from "../lib/identity.ts";
import {
  type NavItem,
  RESEARCHER_LINKS,
  researcherAreaLink,
  researcherMenu,
  STAFF_MENU,
  vendorMenu,
  watchlistMenu,
} from "../lib/navigation.ts";
import { Logo } from "../ui/logo.tsx";
import { MenuLink } from "./menu-link.tsx";

const ITEM_CLASS =
  "inline-flex items-center gap-2 rounded-md px-3 py-2 text-sm font-medium text-slate-300 hover:bg-white/10 hover:text-white";
const CURRENT_CLASS = "bg-white/10 text-white";

function AppHeader({
  label,
  items,
  secondary,
  actions,
}: {
  label: string;
  items: readonly NavItem[];
  secondary?: readonly NavItem[];
  /** Account controls at the end of the bar (sign-out), composed by the layout. */
  actions?: ReactNode;
}) {
  return (
    <header data-theme="dark" className="bg-slate-950 text-white">
      <div className="page-container flex min-h-16 flex-wrap items-center justify-between gap-x-6 gap-y-2 py-2">
        <Logo compact />
        <nav aria-label={label} className="flex-1">
          <ul className="flex flex-wrap items-center gap-1">
            {items.map((item) => (
              <li key={item.label}>
                <MenuLink item={item} className={ITEM_CLASS} currentClassName={CURRENT_CLASS} />
              </li>
            ))}
          </ul>
        </nav>
        {secondary && (
          <nav aria-label="Community">
            <ul className="flex flex-wrap items-center gap-1">
              {secondary.map((item) => (
                <li key={item.label}>
                  <MenuLink
                    item={item}
                    className="rounded-md px-2 py-1 text-xs font-medium text-slate-400 hover:text-white"
                    currentClassName="text-white"
                  />
                </li>
              ))}
            </ul>
          </nav>
        )}
        {actions}
      </div>
    </header>
  );
}

/** Spec §2: Reports, Programs, Account, Report forwarding (badge "New"; not for members). */
export function VendorHeader({ programsPath, actions }: { programsPath: string; actions?: ReactNode }) {
  const user = useIdentity().user;
  const items = [...vendorMenu(programsPath, user), ...researcherAreaLink(user?.researcher?.uuid)];
  return <AppHeader label="Vendor" items={items} actions={actions} />;
}

/** Spec §2: Reports, Account, then Leaderboard, Security programs, Guidelines, Database, Discord. */
export function ResearcherHeader({
  researcherUuid,
  actions,
}: {
  researcherUuid: string | null;
  actions?: ReactNode;
}) {
  return (
    <AppHeader
      label="Researcher"
      items={researcherMenu(researcherUuid)}
      secondary={RESEARCHER_LINKS}
      actions={actions}
    />
  );
}

/** PRODUCT.md §1: the staff area's menu (Reports queue, Product claims). */
export function StaffHeader({ actions }: { actions?: ReactNode }) {
  return <AppHeader label="Staff" items={STAFF_MENU} actions={actions} />;
}

/** Issue 20: the watchlist pages' menu, for any signed-in user (a site owner has no other area). */
export function WatchlistHeader({ actions }: { actions?: ReactNode }) {
  const user = useIdentity().user;
  const items = user ? watchlistMenu(user) : [];
  return <AppHeader label="Watchlists" items={items} actions={actions} />;
}
