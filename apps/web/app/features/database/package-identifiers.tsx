import type { PackageIdentifiers } from "@pressguard/domain";

/**
 * A product's names in other tools (decision 029): its Package URL, Composer package and CPE, as the
 * product API, the OSV records and the CSAF advisories give them. The page is sent without
 * JavaScript (decision 007), so a value is copied by selecting it: one click selects the whole value.
 */
export function PackageIdentifierList({ identifiers }: { identifiers: PackageIdentifiers }) {
  const rows = [
    { label: "Package URL", value: identifiers.purl },
    {
      label: "Composer",
      value: identifiers.composer.name,
      note: identifiers.composer.repository ? `from ${identifiers.composer.repository}` : "on Packagist",
    },
    { label: "Composer purl", value: identifiers.composer.purl },
    ...(identifiers.cpe ? [{ label: "CPE 2.3", value: identifiers.cpe }] : []),
  ];
  return (
    <section aria-labelledby="package-identifiers" className="mt-8 rounded-lg border border-slate-200 p-4">
      <h2 id="package-identifiers" className="text-base font-semibold text-slate-900">
        Identifiers
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        How scanners and dependency tools name this product. Click a value to select it, then copy it.
      </p>
      <dl className="mt-3 grid gap-x-4 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
        {rows.map((row) => (
          <div key={row.label} className="contents">
            <dt className="font-medium text-slate-700">{row.label}</dt>
            <dd className="min-w-0">
              <code className="select-all break-all rounded bg-slate-100 px-1.5 py-0.5 text-slate-900">
                {row.value}
              </code>
              {row.note && <span className="ml-2 text-slate-500">{row.note}</span>}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
