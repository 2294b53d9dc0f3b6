import { pageMeta } from "../../lib/seo.ts";
import { Link } from "../../ui/link.tsx";
import { PageHeader, Section } from "../../ui/page-header.tsx";

export const meta = pageMeta(
  "Patch submitted",
  "See what happens to the report once your fix is submitted, and how future reports can reach you directly.",
);

/** Where the PIN contact lands after submitting a fix (PRODUCT.md §2): what happens next. */
export default function PatchSubmittedPage() {
  return (
    <>
      <PageHeader
        title="Patch submitted"
        lead="Thank you. Your fix is with our team, and the report now waits for their check."
      />
      <div className="space-y-4">
        <Section title="What happens next">
          <ol className="list-decimal space-y-2 pl-5">
            <li>Our team checks the fixed version against the report, usually within a few working days.</li>
            <li>
              If the fix is not complete, we e-mail the product's contact address and the report waits for
              another fix; you can send it through the same link and PIN.
            </li>
            <li>
              Once the fix is confirmed, the vulnerability is published in the public database with the fixed
              version, so your users know to update, and the researcher is credited.
            </li>
          </ol>
        </Section>
        <Section title="Want reports to reach you directly?">
          Claim your product and run a free vulnerability disclosure program: new reports then arrive in your
          vendor area instead of by PIN.
        </Section>
      </div>
      <div className="mt-8 flex flex-wrap gap-3">
        <Link to="/vdp" className="btn-primary">
          About vendor programs
        </Link>
        <Link to="/database" className="btn-secondary">
          Back to the database
        </Link>
      </div>
    </>
  );
}
