import { useLocation } from "react-router";
import type { NavItem } from "../lib/navigation.ts";
import { Link } from "./link.tsx";

interface TabNavProps {
  label: string;
  tabs: readonly NavItem[];
  /** The `to` of the current tab when the path alone does not tell (a default tab without its segment). */
  currentTo?: string;
}

const TAB_CLASS = "inline-flex items-center gap-2 border-b-2 px-1 py-3 text-sm font-medium";
const CURRENT_CLASS = "border-lime-600 text-slate-900";
const OTHER_CLASS = "border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900";

/** The tab bar of a tabs layout: links, the current one marked with `aria-current="page"`. */
export function TabNav({ label, tabs, currentTo }: TabNavProps) {
  const { pathname } = useLocation();
  const path = pathname.replace(/\/+$/, "") || "/";
  const current = currentTo ?? tabs.find((tab) => tab.to === path)?.to;
  return (
    <nav aria-label={label} className="mb-8 border-b border-slate-200">
      <ul className="-mb-px flex flex-wrap gap-x-6">
        {tabs.map((tab) => (
          <li key={tab.to}>
            <Link
              to={tab.to}
              prefetch="intent"
              aria-current={tab.to === current ? "page" : undefined}
              className={`${TAB_CLASS} ${tab.to === current ? CURRENT_CLASS : OTHER_CLASS}`}
            >
              {tab.label}
              {tab.badge && <Badge>{tab.badge}</Badge>}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function Badge({ children }: { children: string }) {
  return (
    <span className="rounded-full bg-brand px-2 py-0.5 text-xs font-semibold text-slate-950">{children}</span>
  );
}
