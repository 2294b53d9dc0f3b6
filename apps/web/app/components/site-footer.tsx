import type { FooterMetrics } from "@pressguard/domain";
import {
  DEFIANT_LICENSE,
  MITRE_ATTRIBUTION,
  MITRE_CVE_LICENSE,
  MITRE_TERMS_URL,
  WORDFENCE_ATTRIBUTION,
  WORDFENCE_LICENSE_URL,
  WORDPRESS_PLUGIN_DIRECTORY_URL,
} from "@pressguard/domain";
import { useQuery } from "@tanstack/react-query";
import { useContext, useEffect } from "react";
import { useApiClient } from "../lib/api/client.ts";
import { footerMetricsQueryOptions } from "../lib/api/footer-metrics.ts";
import { MARKETING_LINKS } from "../lib/external-links.ts";
import { LOGIN_LINK, type NavItem, PRICING_LINK, SOLUTIONS_MENU } from "../lib/navigation.ts";
import { formatCount } from "../lib/numbers.ts";
import { useRootLoaderData } from "../lib/public-config.ts";
import { Link, StaticPageContext } from "../ui/link.tsx";
import { Logo } from "../ui/logo.tsx";
import { Tooltip } from "../ui/tooltip.tsx";
import { MenuLink } from "./menu-link.tsx";

const DATABASE_LINKS: readonly NavItem[] = [
  { label: "Leaderboard", to: "/database/leaderboard" },
  { label: "Statistics", to: "/database/statistics/wordpress" },
  { label: "Report a vulnerability", to: "/database/report" },
  { label: "About the data", to: "/database/about-data" },
];

const ACCOUNT_LINKS: readonly NavItem[] = [
  { label: "Vendor login", to: LOGIN_LINK.to },
  { label: "Researcher login", to: "/researchers/login" },
  { label: "Create account", to: "/register" },
];

/**
 * The footer of the public pages: site links, the active VDP directory count (spec §3, §7: footer
 * metrics, cached one day, failure only logged) and, on database pages, the data attribution the
 * Wordfence and MITRE licences require.
 */
export function SiteFooter({ attribution = false }: { attribution?: boolean }) {
  const linkClass = "text-sm text-slate-300 hover:text-white";

  return (
    <footer data-theme="dark" className="mt-auto bg-slate-950 text-slate-300">
      <div className="page-container grid gap-10 py-12 md:grid-cols-2 lg:grid-cols-4">
        <div>
          <Logo />
          <p className="mt-4 max-w-xs text-sm text-slate-400">
            Coordinated vulnerability disclosure for WordPress plugins and themes, and a public database of
            known vulnerabilities.
          </p>
        </div>

        <FooterColumn title="Database">
          <li>
            <Link to="/database" className={linkClass}>
              Vulnerability database
            </Link>
          </li>
          <li className="flex items-center gap-2">
            <Link to="/database/vdp" className={linkClass}>
              Active VDP directory
            </Link>
            <FooterProgramCount />
          </li>
          {DATABASE_LINKS.map((item) => (
            <li key={item.to}>
              <MenuLink item={item} className={linkClass} />
            </li>
          ))}
        </FooterColumn>

        <FooterColumn title="Solutions">
          {[...SOLUTIONS_MENU, PRICING_LINK].map((item) => (
            <li key={item.label}>
              <MenuLink item={item} className={linkClass} />
            </li>
          ))}
        </FooterColumn>

        <FooterColumn title="Accounts">
          {ACCOUNT_LINKS.map((item) => (
            <li key={item.to}>
              <MenuLink item={item} className={linkClass} />
            </li>
          ))}
        </FooterColumn>
      </div>

      {attribution && <DataAttribution />}

      <div className="border-t border-white/10">
        <div className="page-container flex flex-wrap items-center justify-between gap-4 py-6 text-xs text-slate-400">
          <p>© {new Date().getFullYear()} Pressguard</p>
          <ul className="flex flex-wrap gap-4">
            <li>
              <a href={MARKETING_LINKS.privacy} className="hover:text-white">
                Privacy
              </a>
            </li>
            <li>
              <a href={MARKETING_LINKS.terms} className="hover:text-white">
                Terms
              </a>
            </li>
            <li>
              <a href={MARKETING_LINKS.security} className="hover:text-white">
                Security
              </a>
            </li>
          </ul>
        </div>
      </div>
    </footer>
  );
}

function FooterColumn({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div>
      <h2 className="text-sm font-semibold text-white">{title}</h2>
      <ul className="mt-4 space-y-2">{children}</ul>
    </div>
  );
}

function ActiveProgramCount({ count }: { count: number }) {
  return (
    <Tooltip content="Vendors that run an active vulnerability disclosure program with Pressguard.">
      <button
        type="button"
        data-testid="active-vdp-count"
        className="rounded-full bg-brand px-2 py-0.5 text-xs font-semibold text-slate-950"
      >
        {formatCount(count)}
        <span className="sr-only"> active programs</span>
      </button>
    </Tooltip>
  );
}

/** The Wordfence (Defiant) and MITRE notices, word for word (data README §1.2). */
function DataAttribution() {
  return (
    <section aria-labelledby="data-attribution-heading" className="border-t border-white/10">
      <div className="page-container space-y-3 py-8 text-xs leading-relaxed text-slate-400">
        <h2 id="data-attribution-heading" className="text-sm font-semibold text-white">
          About the data
        </h2>
        <p>
          <a href={WORDFENCE_LICENSE_URL} className="underline hover:text-white">
            {WORDFENCE_ATTRIBUTION}
          </a>
          . {DEFIANT_LICENSE}
        </p>
        <p>
          <a href={MITRE_TERMS_URL} className="underline hover:text-white">
            {MITRE_ATTRIBUTION}
          </a>
          . {MITRE_CVE_LICENSE}
        </p>
        <p>
          Plugin metadata from the{" "}
          <a href={WORDPRESS_PLUGIN_DIRECTORY_URL} className="underline hover:text-white">
            WordPress.org Plugin Directory
          </a>
          .{" "}
          <Link to="/database/about-data" className="underline hover:text-white">
            Sources and licences of the data
          </Link>
        </p>
      </div>
    </section>
  );
}

/**
 * The count beside "Active VDP directory". A page sent without JavaScript shows the root loader's
 * metrics as they are (no query cache to fill: nothing runs in the browser); a hydrated page keeps
 * them fresh through the query. Two components, so a navigation between both kinds remounts.
 */
function FooterProgramCount() {
  return useContext(StaticPageContext) ? <ServerRenderedProgramCount /> : <QueriedProgramCount />;
}

function ServerRenderedProgramCount() {
  const metrics = useRootLoaderData()?.footerMetrics;
  return metrics ? <ActiveProgramCount count={metrics.active_vdp_directory_count} /> : null;
}

function QueriedProgramCount() {
  const metrics = useFooterMetrics();
  return metrics ? <ActiveProgramCount count={metrics.active_vdp_directory_count} /> : null;
}

/** Server-rendered metrics seed the cache; the browser fetches only when SSR had none. */
function useFooterMetrics(): FooterMetrics | null {
  const root = useRootLoaderData();
  const client = useApiClient();
  const query = useQuery({
    ...footerMetricsQueryOptions(client),
    initialData: root?.footerMetrics ?? undefined,
    initialDataUpdatedAt: root?.footerMetricsFetchedAt ?? undefined,
  });
  useEffect(() => {
    if (query.error) console.warn("Footer metrics could not be loaded:", query.error.message);
  }, [query.error]);
  return query.data ?? null;
}
