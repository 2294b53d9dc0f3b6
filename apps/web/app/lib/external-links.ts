/**
 * Links that leave the application: the marketing site, the community. One file, so that the
 * deployment can point them elsewhere. The marketing site is not part of this repository.
 */
const MARKETING_SITE_URL = "https://pressguard.example";
export const DISCORD_INVITE_URL = `${MARKETING_SITE_URL}/discord`;

export const MARKETING_LINKS = {
  pricing: `${MARKETING_SITE_URL}/pricing`,
  wordpressSecurity: `${MARKETING_SITE_URL}/solutions/wordpress-security`,
  pluginAuditing: `${MARKETING_SITE_URL}/solutions/plugin-auditing`,
  managedVdp: `${MARKETING_SITE_URL}/solutions/managed-vdp`,
  bugBounty: `${MARKETING_SITE_URL}/solutions/bug-bounty`,
  forHosts: `${MARKETING_SITE_URL}/solutions/hosts`,
  researcherGuidelines: `${MARKETING_SITE_URL}/researchers/guidelines`,
  about: `${MARKETING_SITE_URL}/about`,
  privacy: `${MARKETING_SITE_URL}/privacy`,
  terms: `${MARKETING_SITE_URL}/terms`,
  security: `${MARKETING_SITE_URL}/security`,
} as const;
