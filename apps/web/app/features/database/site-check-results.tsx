import { type CheckResponse, versionToUpdateTo } from "@pressguard/domain";
import { byUrgency, fixesOf, VulnerabilityList } from "../../components/checked-vulnerability.tsx";
import { Link } from "../../ui/link.tsx";
import { databasePaths } from "./paths.ts";

export type CheckResults = CheckResponse["results"];

type Result = CheckResults[number];

const rank = (result: Result) => (result.vulnerabilities.length > 0 ? 0 : result.known ? 1 : 2);

/** Vulnerable products first, then the ones with nothing known in their version, then unknown ones. */
export function orderResults(results: CheckResults): CheckResults {
  return results
    .map((result, index) => ({ result, index }))
    .sort((a, b) => rank(a.result) - rank(b.result) || a.index - b.index)
    .map(({ result }) => result);
}

const NOUNS: Record<string, [string, string]> = {
  plugin: ["plugin", "plugins"],
  theme: ["theme", "themes"],
};

/** "3 of 24 plugins have known vulnerabilities" (products when the list mixes kinds). */
export function summaryOf(results: CheckResults): string {
  const kinds = new Set(results.map((result) => result.kind));
  const [one, many] = (kinds.size === 1 && NOUNS[[...kinds][0] ?? ""]) || ["product", "products"];
  const vulnerable = results.filter((result) => result.vulnerabilities.length > 0).length;
  const noun = results.length === 1 ? one : many;
  return `${vulnerable} of ${results.length} ${noun} ${vulnerable === 1 ? "has" : "have"} known vulnerabilities`;
}

const KIND_LABELS: Record<string, string> = { plugin: "Plugin", theme: "Theme", core: "WordPress core" };

function ResultItem({ result }: { result: Result }) {
  const name = result.kind === "core" ? "WordPress" : result.slug;
  const product = { platform: "wordpress", kind: result.kind, slug: result.slug };
  const count = result.vulnerabilities.length;
  const vulnerable = count > 0;
  const fixes = fixesOf(result.vulnerabilities);
  const updateTo = versionToUpdateTo(fixes);
  const unfixed = fixes.filter((fix) => !fix.fixed_in).length;
  const vulnerabilities = byUrgency(result.vulnerabilities);
  return (
    <li
      className={`rounded-lg border bg-white p-4 shadow-sm ${vulnerable ? "border-red-300" : "border-slate-200"}`}
      data-testid="check-result"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h3 className="font-semibold break-all text-slate-900">
          {result.known ? (
            <Link to={databasePaths.product(product)} className="link">
              {name}
            </Link>
          ) : (
            name
          )}{" "}
          <span className="text-sm font-normal text-slate-500">
            {KIND_LABELS[result.kind] ?? result.kind}
          </span>
        </h3>
        <p className="text-sm text-slate-600">
          Installed: <span className="font-mono">{result.version}</span>
        </p>
      </div>
      {vulnerable ? (
        <>
          <p className="mt-1 text-sm text-red-800">
            {count === 1 ? "1 known vulnerability" : `${count} known vulnerabilities`} in this version
            {updateTo && (
              <>
                : <strong>update to {updateTo} or later</strong> fixes{" "}
                {unfixed === 0 ? (count === 1 ? "it" : "them all") : `${count - unfixed} of them`}
              </>
            )}
            .
          </p>
          <VulnerabilityList vulnerabilities={vulnerabilities} />
        </>
      ) : (
        <p className="mt-2 text-sm text-slate-700">
          {result.known
            ? "No known vulnerability in this version"
            : "Not in the database (nothing known, which does not mean it is safe)"}
        </p>
      )}
    </li>
  );
}

/** The answer of the "Check your site" page: a summary line, then one entry per product. */
export function SiteCheckResults({ results }: { results: CheckResults }) {
  return (
    <section aria-labelledby="check-results-heading" className="mt-8">
      <h2 id="check-results-heading" className="text-xl font-semibold text-slate-900">
        {summaryOf(results)}
      </h2>
      <ul className="mt-4 space-y-3">
        {orderResults(results).map((result) => (
          <ResultItem key={`${result.kind}:${result.slug}`} result={result} />
        ))}
      </ul>
    </section>
  );
}
