import type { ProductProgram, PublicProduct } from "@pressguard/domain";
import type { ReactNode } from "react";
import { Link, useRouteLoaderData } from "react-router";
import { productFeeds } from "../../features/database/feeds.ts";
import type { loader as pluginTabsLoader } from "../../layouts/plugin-tabs.tsx";
import { KIND_LABELS, productNameFromSlug } from "../../lib/database-params.ts";
import { formatDay } from "../../lib/dates.ts";
import { pageMeta } from "../../lib/seo.ts";
import { Panel } from "../../ui/page-header.tsx";

export const meta = pageMeta(
  ({ params }) => `${productNameFromSlug(params.product ?? "")} security policy`,
  ({ params }) =>
    `How to report a security vulnerability in ${productNameFromSlug(params.product ?? "")}, and whether its vendor runs a disclosure program.`,
  ({ params, matches }) => productFeeds(params, productNameOf(matches)),
);

function productNameOf(matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>) {
  const data = matches.find((match) => match?.id === "layouts/plugin-tabs")?.loaderData;
  return (data as { product?: { name: string } } | undefined)?.product?.name;
}

/** The program's generated policy, or a clear "no program" state with a link to report (issue 5). */
export default function ProductSecurityPolicyPage() {
  const data = useRouteLoaderData<typeof pluginTabsLoader>("layouts/plugin-tabs");
  const product = data?.product;
  const productPath = data ? `${data.platform}/${data.kind}/${encodeURIComponent(data.product.slug)}` : null;
  const reportPath = productPath ? `/database/report/${productPath}` : "/database/report";
  if (data && product?.program) {
    return (
      <SecurityPolicy
        product={product}
        program={product.program}
        kindLabel={KIND_LABELS[data.kind]}
        reportPath={reportPath}
        securityTxtPath={`/database/${productPath}/security.txt`}
      />
    );
  }
  if (product?.is_active) {
    // An active product without its program's details (an older API answer): the short statement.
    return (
      <Panel>
        {product.name} runs a vulnerability disclosure program on Pressguard: reports are forwarded to the
        vendor, who fixes them under the program's deadlines.{" "}
        <Link to={reportPath} className="link">
          Report a vulnerability
        </Link>
      </Panel>
    );
  }
  return (
    <Panel>
      <p className="font-semibold text-slate-900">No vulnerability disclosure program</p>
      <p className="mt-2">
        The vendor of {product?.name ?? "this product"} has no program on Pressguard yet. You can still report
        a vulnerability: we verify it and contact the vendor for you.
      </p>
      <p className="mt-4">
        <Link to={reportPath} className="btn-primary">
          Report a vulnerability
        </Link>
      </p>
    </Panel>
  );
}

function PolicySection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="border-t border-slate-200 pt-6 first:border-t-0 first:pt-0">
      <h2 id={id} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      <div className="mt-2 space-y-2 leading-relaxed text-slate-700">{children}</div>
    </section>
  );
}

/**
 * The security policy Pressguard publishes for an active program (PRODUCT.md §4): scope, how to
 * report, the fix deadline, safe harbour, coordinated disclosure and who the vendor is.
 */
function SecurityPolicy({
  product,
  program,
  kindLabel,
  reportPath,
  securityTxtPath,
}: {
  product: PublicProduct;
  program: ProductProgram;
  kindLabel: string;
  reportPath: string;
  /** The program's generated security.txt (RFC 9116), served by the API server (decision 026). */
  securityTxtPath: string;
}) {
  const kind = kindLabel.toLowerCase();
  const since = formatDay(program.activated_at);
  return (
    <article className="space-y-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
      <p className="rounded-md bg-lime-50 px-4 py-3 text-sm text-lime-900">
        {program.vendor_name} runs a vulnerability disclosure program for {product.name} on Pressguard
        {since ? ` since ${since}` : ""}. Reports sent through Pressguard reach the vendor's security team
        directly.
      </p>
      <PolicySection id="policy-scope" title="Scope">
        <p>
          The WordPress {kind} <strong>{product.name}</strong> (slug{" "}
          <code className="font-mono">{product.slug}</code>
          ), all versions, including the current release{product.version ? ` (${product.version})` : ""}.
          Issues in WordPress core, in other plugins or themes, or in hosting are out of scope: report them to
          their own vendors.
        </p>
      </PolicySection>
      <PolicySection id="policy-report" title="How to report">
        <p>
          Use the report form for {product.name}: it is already filled in with the product, and asks for the
          affected versions, a description and the steps to reproduce. Please do not report through public
          channels such as the WordPress.org support forum.
        </p>
        <p className="pt-2">
          <Link to={reportPath} className="btn-primary">
            Report a vulnerability
          </Link>
        </p>
        <p>
          For security tools, this program's contact and policy are also published as a{" "}
          <a href={securityTxtPath} type="text/plain" className="link">
            security.txt file
          </a>{" "}
          (RFC 9116).
        </p>
      </PolicySection>
      <PolicySection id="policy-deadline" title="Fix deadline">
        <p>
          Pressguard checks each report and notifies the vendor. {program.vendor_name} commits to releasing a
          fix within <strong>{program.fix_deadline_days} days</strong> of being notified, and to keeping the
          reporter informed of the progress.
        </p>
      </PolicySection>
      <PolicySection id="policy-safe-harbour" title="Safe harbour">
        <p>
          {program.vendor_name} will not take legal action against researchers who act in good faith under
          this policy: who test only their own installations, do not access, change or keep other people's
          data, avoid harming the service or its users, and give the vendor the time above to fix the issue
          before disclosing it.
        </p>
      </PolicySection>
      <PolicySection id="policy-disclosure" title="Coordinated disclosure">
        <p>
          Once a fix is released, or the deadline has passed, the vulnerability is published in the Pressguard
          vulnerability database with credit to the researcher. Please keep the details private until then.
        </p>
      </PolicySection>
      <PolicySection id="policy-vendor" title="Vendor">
        <p>
          {program.vendor_name}
          {program.vendor_website_url && (
            <>
              {" — "}
              <a href={program.vendor_website_url} className="link break-all" rel="noopener">
                {program.vendor_website_url}
              </a>
            </>
          )}
        </p>
      </PolicySection>
    </article>
  );
}
