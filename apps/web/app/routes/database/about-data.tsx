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
} from "../../lib/data-attribution.ts";
import { pageMeta } from "../../lib/seo.ts";
import { CopyButton } from "../../ui/copy-button.tsx";
import { PageHeader } from "../../ui/page-header.tsx";

export const meta = pageMeta(
  "About the data",
  "Sources, licences and attribution of the vulnerability database.",
);

/** The sources and licences of the public data (data README §1.2), word for word. */
export default function AboutDataPage() {
  return (
    <>
      <PageHeader
        eyebrow="Public database"
        title="About the data"
        lead="Where the vulnerability records come from, and the licences under which they are redistributed."
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
      </div>
    </>
  );
}
