import { formatSupportEnd, type ProductProgram, type PublicProduct } from "@pressguard/domain";
import type { ReactNode } from "react";
import { formatDay } from "../../lib/dates.ts";
import { Link } from "../../ui/link.tsx";
import { Markdown } from "../../ui/markdown.tsx";

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
 * The security policy of an active program (PRODUCT.md §4, issue 20): the vendor's policy (or the
 * generated one) as Markdown, then how to report, the single point of contact, the support period
 * and who the vendor is.
 */
export function SecurityPolicy({
  product,
  program,
  reportPath,
  securityTxtPath,
}: {
  product: PublicProduct;
  program: ProductProgram;
  reportPath: string;
  /** The program's generated security.txt (RFC 9116), served by the API server (decision 026). */
  securityTxtPath: string;
}) {
  const since = formatDay(program.activated_at);
  const updated = formatDay(program.policy_updated_at);
  return (
    <article className="space-y-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
      <p className="rounded-md bg-lime-50 px-4 py-3 text-sm text-lime-900">
        {program.vendor_name} runs a vulnerability disclosure program for {product.name} on Pressguard
        {since ? ` since ${since}` : ""}. Reports sent through Pressguard reach the vendor's security team
        directly.
      </p>
      <section aria-label="Disclosure policy">
        {/* The policy's headings look like the page's own sections below. */}
        <Markdown className="markdown text-base leading-relaxed text-slate-700 [&_h2]:mt-6 [&_h2]:text-lg [&_h2]:font-semibold [&_h2]:text-slate-900">
          {program.policy_markdown}
        </Markdown>
        {updated && <p className="mt-3 text-xs text-slate-500">Policy updated {updated}.</p>}
      </section>
      <PolicySection id="policy-report" title="Report a vulnerability">
        <p>
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
      {program.security_contact_email && (
        <PolicySection id="policy-contact" title="Single point of contact">
          <p>
            For questions about the security of {product.name}, write to{" "}
            <a href={`mailto:${program.security_contact_email}`} className="link break-all">
              {program.security_contact_email}
            </a>
            . Report vulnerabilities through the form above.
          </p>
        </PolicySection>
      )}
      <PolicySection id="policy-support" title="Support period">
        <p>
          {program.support_ends_on
            ? `Security updates until ${formatSupportEnd(program.support_ends_on)}.`
            : `${program.vendor_name} has not declared an end date for security updates.`}
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
