import { Link } from "react-router";
import { pageMeta } from "../../lib/seo.ts";
import { PageHeader, Section } from "../../ui/page-header.tsx";

export const meta = pageMeta(
  "WordPress Vulnerability Database",
  "Known vulnerabilities in WordPress plugins, themes and core: affected versions, severity, fixes and credits.",
);

export default function DatabaseHomePage() {
  return (
    <>
      <PageHeader
        eyebrow="Public database"
        title="Vulnerability database"
        lead="Known vulnerabilities in WordPress plugins, themes and core, with affected versions, severity, fixed versions and the researchers who found them."
        actions={
          <Link to="/database/report" className="btn-primary">
            Report a vulnerability
          </Link>
        }
      />
      <div className="grid gap-6 md:grid-cols-2">
        <Section title="Search">
          Search by title, product name or slug, or CVE id, and filter by kind, vulnerability type, severity,
          patch status and year.
        </Section>
        <Section title="Latest vulnerabilities">
          The newest published records come first, each with its CVSS 3.1 score and a link to the product's
          page.
        </Section>
        <Section title="For machines">
          Every vulnerability is available as OSV JSON, in an Atom feed, and through a batch version check for
          your installed plugins and themes.
        </Section>
        <Section title="Where the data comes from">
          The records come from the Wordfence Intelligence feed and the WordPress.org Plugin Directory.{" "}
          <Link to="/database/about-data" className="link">
            About the data
          </Link>
        </Section>
      </div>
    </>
  );
}
