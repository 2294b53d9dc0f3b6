import {
  DEFIANT_LICENSE,
  FULL_ATTRIBUTION_TEXT,
  INTERMEDIATE_REPOSITORY_NOTICE,
  MITRE_ATTRIBUTION,
  MITRE_CVE_LICENSE,
  MITRE_TERMS_URL,
  WORDFENCE_ATTRIBUTION,
  WORDFENCE_FEED_DOCS_URL,
  WORDFENCE_LICENSE_URL,
  WORDFENCE_TRADEMARK_NOTICE,
  WORDPRESS_PLUGIN_DIRECTORY_URL,
} from "@pressguard/domain";
import { pageMeta } from "../../lib/seo.ts";
import { CopyButton } from "../../ui/copy-button.tsx";
import { Link } from "../../ui/link.tsx";
import { PageHeader } from "../../ui/page-header.tsx";

export const meta = pageMeta(
  "About the data",
  "Sources, licences and attribution of the vulnerability database, and how reported vulnerabilities are disclosed.",
);

/**
 * The sources and licences of the public data (data README §1.2), word for word, and how a
 * vulnerability reported here becomes a record: the disclosure policy security.txt's Policy names
 * (decision 026; PRODUCT.md §2).
 */
export default function AboutDataPage() {
  return (
    <>
      <PageHeader
        eyebrow="Public database"
        title="About the data"
        lead="Where the vulnerability records come from, the licences under which they are redistributed, and how vulnerabilities reported here are disclosed."
        actions={<CopyButton value={FULL_ATTRIBUTION_TEXT} label="Copy attribution" />}
      />
      <div className="prose-like max-w-3xl space-y-10">
        <section aria-labelledby="wordfence-heading">
          <h2 id="wordfence-heading">Wordfence Intelligence (Defiant, Inc.)</h2>
          <p>
            <a href={WORDFENCE_LICENSE_URL}>{WORDFENCE_ATTRIBUTION}</a>.
          </p>
          <p>
            The records come from the{" "}
            <a href={WORDFENCE_FEED_DOCS_URL}>Wordfence Intelligence Vulnerability Data Feed</a>, production
            feed, published by Defiant, Inc. Each record links to its page on wordfence.com. Each feed record
            carries this license:
          </p>
          <blockquote>{DEFIANT_LICENSE}</blockquote>
          <p>
            License: <a href={WORDFENCE_LICENSE_URL}>{WORDFENCE_LICENSE_URL}</a> (section 3.1 "License Grants"
            of the Wordfence Intelligence Terms and Conditions grants the same rights).{" "}
            {WORDFENCE_TRADEMARK_NOTICE}
          </p>
        </section>

        <section aria-labelledby="mitre-heading">
          <h2 id="mitre-heading">CVE identifiers (The MITRE Corporation)</h2>
          <p>
            <a href={MITRE_TERMS_URL}>{MITRE_ATTRIBUTION}</a>.
          </p>
          <blockquote>{MITRE_CVE_LICENSE}</blockquote>
          <p>
            License: <a href={MITRE_TERMS_URL}>{MITRE_TERMS_URL}</a>
          </p>
        </section>

        <section aria-labelledby="plugins-heading">
          <h2 id="plugins-heading">WordPress.org Plugin Directory</h2>
          <p>
            Plugin metadata (names, versions, active installs) comes from the{" "}
            <a href={WORDPRESS_PLUGIN_DIRECTORY_URL}>WordPress.org Plugin Directory</a>.
          </p>
        </section>

        <section aria-labelledby="intermediate-heading">
          <h2 id="intermediate-heading">How this copy was made</h2>
          <p>{INTERMEDIATE_REPOSITORY_NOTICE}</p>
        </section>

        <section id="disclosure" aria-labelledby="disclosure-heading">
          <h2 id="disclosure-heading">How reported vulnerabilities are disclosed</h2>
          <p>
            Anyone can report a vulnerability in a WordPress plugin, theme or core through the{" "}
            <Link to="/database/report">report form</Link>. A report stays private until it is published.
          </p>
          <ol className="mt-3 list-decimal space-y-2 pl-6 leading-relaxed text-slate-700">
            <li>
              Our triage team checks each report. It is either rejected, with the reason (a duplicate, out of
              scope, invalid, not reproducible or informative only), or validated.
            </li>
            <li>
              A validated report goes to the vendor: straight to their security team when the product runs a
              disclosure program here (see the <Link to="/database/vdp">VDP directory</Link>), otherwise to
              the vendor's contact address with a private link. The vendor has the program's fix deadline, 30
              days by default, from that notice.
            </li>
            <li>
              Once the fix is released and verified, or the deadline has passed without one, the vulnerability
              is published in this database with credit to the researcher.
            </li>
          </ol>
          <p>
            Researchers: test only your own installations, do not access or change other people's data, and
            keep the details private until publication. Each program's own page states its scope, deadline and
            safe harbour.
          </p>
        </section>
      </div>
    </>
  );
}
