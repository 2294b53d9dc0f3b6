/**
 * Attribution and licence texts of the public vulnerability data, word for word from
 * `data/seed/wordpress-vulns/README.md` §1.2. The Wordfence licence requires them on every page that
 * shows a record (the database footer and /database/about-data) and in every copy of a record
 * (the CSAF advisories, decision 029).
 */

export const WORDFENCE_LICENSE_URL = "https://www.wordfence.com/wordfence-intelligence-terms-and-conditions/";
export const MITRE_TERMS_URL = "https://www.cve.org/Legal/TermsOfUse";
export const WORDFENCE_FEED_DOCS_URL =
  "https://www.wordfence.com/help/wordfence-intelligence/v2-accessing-and-consuming-the-vulnerability-data-feed/";
export const WORDPRESS_PLUGIN_DIRECTORY_URL = "https://wordpress.org/plugins/";

export const WORDFENCE_ATTRIBUTION =
  "Vulnerability information Copyright Defiant Inc. (Wordfence Intelligence), redistributed under the Wordfence Intelligence license";

export const DEFIANT_LICENSE =
  "Defiant hereby grants you a perpetual, worldwide, non-exclusive, no-charge, royalty-free, irrevocable copyright license to reproduce, prepare derivative works of, publicly display, publicly perform, sublicense, and distribute this software vulnerability information. Any copy of the software vulnerability information you make for such purposes is authorized provided that you include a hyperlink to this vulnerability record and reproduce Defiant's copyright designation and this license in any such copy.";

export const WORDFENCE_TRADEMARK_NOTICE =
  "Wordfence and Wordfence Intelligence are trademarks of Defiant, Inc. This project is not affiliated with or endorsed by Defiant.";

export const MITRE_ATTRIBUTION = "CVE® identifiers Copyright The MITRE Corporation";

export const MITRE_CVE_LICENSE =
  "CVE Usage: MITRE hereby grants you a perpetual, worldwide, non-exclusive, no-charge, royalty-free, irrevocable copyright license to reproduce, prepare derivative works of, publicly display, publicly perform, sublicense, and distribute Common Vulnerabilities and Exposures (CVE®). Any copy you make for such purposes is authorized provided that you reproduce MITRE's copyright designation and this license in any such copy.";

const PLUGIN_DIRECTORY_ATTRIBUTION = "Plugin metadata from the WordPress.org Plugin Directory.";

export const INTERMEDIATE_REPOSITORY_NOTICE =
  'The records were taken from https://github.com/topscoder/nuclei-wordfence-cve, released under the MIT License, "Copyright (c) 2025 topscoder". Only data values were taken from it; none of its code is used.';

/** The whole attribution as plain text, for copying into a redistributed copy of the data. */
export const FULL_ATTRIBUTION_TEXT = [
  `${WORDFENCE_ATTRIBUTION} (${WORDFENCE_LICENSE_URL}).`,
  DEFIANT_LICENSE,
  WORDFENCE_TRADEMARK_NOTICE,
  `${MITRE_ATTRIBUTION} (${MITRE_TERMS_URL}).`,
  MITRE_CVE_LICENSE,
  PLUGIN_DIRECTORY_ATTRIBUTION,
].join("\n\n");
