/**
 * What a vendor puts on their own site and in their readme so that researchers find the program
 * (decision 026): the program's security.txt, served here, and a `== Security ==` section for the
 * WordPress readme.txt. Paths follow apps/web/app/routes.ts and the API server's site files.
 */

interface ProgramPath {
  platform: string;
  kind: string;
  slug: string;
}

const productPath = (program: ProgramPath) =>
  `${encodeURIComponent(program.platform)}/${encodeURIComponent(program.kind)}/${encodeURIComponent(program.slug)}`;

export const programSecurityPaths = (program: ProgramPath) => ({
  securityTxt: `/database/${productPath(program)}/security.txt`,
  report: `/database/report/${productPath(program)}`,
  policy: `/database/${productPath(program)}/security-policy/vdp`,
});

/**
 * The readme.txt section (WordPress.org readme format: `== Section ==`, Markdown links) that sends
 * researchers to the program's report form rather than the public support forum.
 */
export function readmeSecuritySection(options: {
  productName: string;
  siteName: string;
  reportUrl: string;
  policyUrl: string;
}): string {
  const { productName, siteName, reportUrl, policyUrl } = options;
  return [
    "== Security ==",
    "",
    `Found a security vulnerability in ${productName}? Please report it privately through [our vulnerability disclosure program on ${siteName}](${reportUrl}), not in the support forums. ${siteName} checks each report and forwards it to us; the researcher is credited when the fix is published.`,
    "",
    `Our security policy (scope, fix deadline, safe harbour): ${policyUrl}`,
    "",
  ].join("\n");
}
