import type { VendorProgram } from "@pressguard/domain";
import { useQuery } from "@tanstack/react-query";
import { formatDay } from "../../lib/dates.ts";
import { usePublicConfig } from "../../lib/public-config.ts";
import { canonicalUrl } from "../../lib/seo.ts";
import { CopyButton } from "../../ui/copy-button.tsx";
import { LoadError } from "../../ui/form-field.tsx";
import { programSecurityTxtQuery } from "./api.ts";
import { programSecurityPaths, readmeSecuritySection } from "./security-files.ts";

const FILE_CLASS =
  "mt-3 overflow-x-auto rounded-md border border-slate-200 bg-slate-50 p-3 font-mono text-xs leading-relaxed whitespace-pre-wrap break-all text-slate-800";

/**
 * The program's security.txt and readme.txt section, to copy onto the vendor's own site and plugin
 * page (decision 026). Only an active program has them: a pending one is not public yet.
 */
export function SecurityFiles({ program }: { program: VendorProgram }) {
  const config = usePublicConfig();
  const paths = programSecurityPaths(program);
  const securityTxtUrl = `${config.site.url.replace(/\/+$/, "")}${paths.securityTxt}`;
  const securityTxt = useQuery({
    ...programSecurityTxtQuery(String(program.id), paths.securityTxt),
    enabled: program.is_active,
  });
  const readme = readmeSecuritySection({
    productName: program.name,
    siteName: config.site.name,
    reportUrl: canonicalUrl(config, paths.report),
    policyUrl: canonicalUrl(config, paths.policy),
  });
  const expires = securityTxt.data?.match(/^Expires: (.+)$/m)?.[1];
  return (
    <section
      aria-labelledby="program-security-files"
      className="mt-8 rounded-lg border border-slate-200 bg-white p-6"
    >
      <h2 id="program-security-files" className="text-lg font-semibold text-slate-900">
        Tell researchers where to report
      </h2>
      {!program.is_active ? (
        <p className="mt-2 text-sm text-slate-700">
          Once the program is active, its security.txt and a readme.txt section are shown here for your site
          and your WordPress.org page.
        </p>
      ) : (
        <>
          <h3 className="mt-4 font-semibold text-slate-900">security.txt</h3>
          <p className="mt-1 text-sm text-slate-700">
            Serve it at <code className="font-mono">/.well-known/security.txt</code> on your website (RFC
            9116). Best, redirect that address to this file, which stays current; a copy must be replaced
            before its Expires date{expires ? ` (${formatDay(expires) ?? expires})` : ""}.
          </p>
          <div className="mt-3 flex flex-wrap items-center gap-2">
            <a href={paths.securityTxt} type="text/plain" className="link min-w-0 break-all text-sm">
              {securityTxtUrl}
            </a>
            <CopyButton value={securityTxtUrl} label="Copy URL" />
          </div>
          {securityTxt.isError ? (
            <LoadError message="The security.txt could not be loaded." />
          ) : securityTxt.data === undefined ? (
            <p className="mt-3 text-sm text-slate-600">Loading…</p>
          ) : (
            <>
              <pre data-testid="program-security-txt" className={FILE_CLASS}>
                {securityTxt.data}
              </pre>
              <CopyButton value={securityTxt.data} label="Copy security.txt" className="mt-2" />
            </>
          )}
          <h3 className="mt-6 font-semibold text-slate-900">readme.txt</h3>
          <p className="mt-1 text-sm text-slate-700">
            Add this section to your {program.kind}'s readme.txt, so that its WordPress.org page sends
            researchers here rather than to the support forum.
          </p>
          <pre data-testid="program-readme-section" className={FILE_CLASS}>
            {readme}
          </pre>
          <CopyButton value={readme} label="Copy readme section" className="mt-2" />
        </>
      )}
    </section>
  );
}
