/**
 * Real records copied from data/seed/wordpress-vulns (Wordfence Intelligence data, Copyright Defiant
 * Inc., and WordPress.org directory metadata; see the README there for licences), used by the importer
 * tests. Edit copies of them in tests, never these.
 */

/** A "<" range with a fixed version (the README §1.4 example). */
export const SMASH_BALLOON_XSS = {
  id: "01889c7b-f47b-4caf-8e35-4f8af188426e",
  source: "wordfence-intelligence",
  source_url:
    "https://www.wordfence.com/threat-intel/vulnerabilities/id/01889c7b-f47b-4caf-8e35-4f8af188426e",
  cve: "CVE-2021-25065",
  title: "Smash Balloon Social Post Feed <= 4.1 - Reflected Cross-Site Scripting",
  description:
    "The Smash Balloon Social Post Feed WordPress plugin before 4.1.1 was affected by a reflected XSS in custom-facebook-feed in cff-top admin page.",
  vuln_type: "Reflected Cross-Site Scripting",
  software_type: "plugin",
  slug: "custom-facebook-feed",
  software_name: "Smash Balloon Social Post Feed",
  affected: [
    {
      fixed: "4.1.1",
      prefix: "<",
      version: "4.1.1",
    },
  ],
  fixed_in: "4.1.1",
  affected_possibly_incomplete: false,
  software: [
    {
      software_type: "plugin",
      slug: "custom-facebook-feed",
      software_name: "Smash Balloon Social Post Feed",
      affected: [
        {
          fixed: "4.1.1",
          prefix: "<",
          version: "4.1.1",
        },
      ],
      fixed_in: "4.1.1",
    },
  ],
  cvss_score: 5.4,
  cvss_vector: "CVSS:3.1/AV:N/AC:L/PR:L/UI:R/S:C/C:L/I:L/A:N",
  cvss_version: "3.1",
  cvss_rating: "Medium",
  cwe: null,
  published_at: null,
  updated_at: null,
  researchers: null,
  references: [
    "https://www.wordfence.com/threat-intel/vulnerabilities/id/01889c7b-f47b-4caf-8e35-4f8af188426e?source=api-prod",
  ],
  attribution:
    "Vulnerability information Copyright Defiant Inc. (Wordfence Intelligence), redistributed under the Wordfence Intelligence license (see README); CVE identifiers Copyright The MITRE Corporation (CVE Terms of Use).",
} as const;

/** Two software items (plugin and its lite edition), a CVE-record date, one researcher. */
export const MODERN_EVENTS_SSRF = {
  id: "00bf8f2f-6ab4-4430-800b-5b97abe7589e",
  source: "wordfence-intelligence",
  source_url:
    "https://www.wordfence.com/threat-intel/vulnerabilities/id/00bf8f2f-6ab4-4430-800b-5b97abe7589e",
  cve: "CVE-2024-6522",
  title: "Modern Events Calendar <= 7.12.1 - Authenticated (Subscriber+) Server Side Request Forgery",
  description:
    "The Modern Events Calendar plugin for WordPress is vulnerable to Server-Side Request Forgery in all versions up to, and including, 7.12.1 via the 'mec_fes_form' AJAX function. This makes it possible for authenticated attackers, with Subscriber-level access and above, to make web requests to arbitrary locations originating from the web application and can be used to query and modify information from internal services.",
  vuln_type: "Authenticated (Subscriber+) Server Side Request Forgery",
  software_type: "plugin",
  slug: "modern-events-calendar",
  software_name: null,
  affected: [
    {
      last_affected: "7.12.1",
      prefix: "<=",
      version: "7.12.1",
    },
  ],
  fixed_in: null,
  affected_possibly_incomplete: false,
  software: [
    {
      software_type: "plugin",
      slug: "modern-events-calendar",
      software_name: null,
      affected: [
        {
          last_affected: "7.12.1",
          prefix: "<=",
          version: "7.12.1",
        },
      ],
      fixed_in: null,
    },
    {
      software_type: "plugin",
      slug: "modern-events-calendar-lite",
      software_name: null,
      affected: [
        {
          last_affected: "7.12.1",
          prefix: "<=",
          version: "7.12.1",
        },
      ],
      fixed_in: null,
    },
  ],
  cvss_score: 8.5,
  cvss_vector: "CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:C/C:H/I:L/A:N",
  cvss_version: "3.1",
  cvss_rating: "High",
  cwe: "CWE-918",
  published_at: "2024-08-07T11:00:06Z",
  updated_at: "2024-08-07T13:17:59Z",
  researchers: ["Friderika Baranyai"],
  references: [
    "https://www.wordfence.com/threat-intel/vulnerabilities/id/00bf8f2f-6ab4-4430-800b-5b97abe7589e?source=api-prod",
  ],
  attribution:
    "Vulnerability information Copyright Defiant Inc. (Wordfence Intelligence), redistributed under the Wordfence Intelligence license (see README); CVE identifiers Copyright The MITRE Corporation (CVE Terms of Use).",
} as const;

/** Three credited researchers and a fixed_in taken from the CVE record for a "<=" range. */
export const WEB_DIRECTORY_SQLI = {
  id: "2a6c5610-ed84-4d7d-a28f-d3807230e119",
  source: "wordfence-intelligence",
  source_url:
    "https://www.wordfence.com/threat-intel/vulnerabilities/id/2a6c5610-ed84-4d7d-a28f-d3807230e119",
  cve: "CVE-2024-3552",
  title: "Web Directory Free <= 1.6.9 - Unauthenticated SQL Injection",
  description:
    "The Web Directory Free plugin for WordPress is vulnerable to SQL Injection in all versions up to, and including, 1.6.9 due to insufficient escaping on a user supplied parameter and lack of sufficient preparation on the existing SQL query.  This makes it possible for unauthenticated attackers to append additional SQL queries into already existing queries that can be used to extract sensitive information from the database.",
  vuln_type: "Unauthenticated SQL Injection",
  software_type: "plugin",
  slug: "web-directory-free",
  software_name: "Web Directory Free",
  affected: [
    {
      last_affected: "1.6.9",
      prefix: "<=",
      version: "1.6.9",
    },
  ],
  fixed_in: "1.7.0",
  affected_possibly_incomplete: false,
  software: [
    {
      software_type: "plugin",
      slug: "web-directory-free",
      software_name: "Web Directory Free",
      affected: [
        {
          last_affected: "1.6.9",
          prefix: "<=",
          version: "1.6.9",
        },
      ],
      fixed_in: "1.7.0",
    },
  ],
  cvss_score: 9.8,
  cvss_vector: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H",
  cvss_version: "3.1",
  cvss_rating: "Critical",
  cwe: "CWE-89",
  published_at: "2024-06-13T06:00:02Z",
  updated_at: "2024-08-01T20:12:07Z",
  researchers: ["Simone Onofri", "Kim Cerra", "Andrea De Dominicis"],
  references: [
    "https://www.wordfence.com/threat-intel/vulnerabilities/id/2a6c5610-ed84-4d7d-a28f-d3807230e119?source=api-prod",
  ],
  attribution:
    "Vulnerability information Copyright Defiant Inc. (Wordfence Intelligence), redistributed under the Wordfence Intelligence license (see README); CVE identifiers Copyright The MITRE Corporation (CVE Terms of Use).",
} as const;

/** "<= *": every version affected, no last_affected. */
export const VIDEO_GALLERY_ALL_VERSIONS = {
  id: "029c3606-caba-4964-aefd-6000a1b4832d",
  source: "wordfence-intelligence",
  source_url:
    "https://www.wordfence.com/threat-intel/vulnerabilities/id/029c3606-caba-4964-aefd-6000a1b4832d",
  cve: null,
  title: "WORDPRESS VIDEO GALLERY <= 3.0 - Improper Access Control",
  description:
    "The WORDPRESS VIDEO GALLERY plugin for WordPress is vulnerable to authorization bypass due to a missing capability check on the 'email' ajax action in versions up to, and including, 3.0. This makes it possible for unauthorized attackers to perform various malicious actions such as Denial of Service, Phishing, spam, etc.",
  vuln_type: "Improper Access Control",
  software_type: "plugin",
  slug: "contus-video-gallery",
  software_name: "WORDPRESS VIDEO GALLERY",
  affected: [
    {
      prefix: "<=",
      version: "*",
    },
  ],
  fixed_in: null,
  affected_possibly_incomplete: false,
  software: [
    {
      software_type: "plugin",
      slug: "contus-video-gallery",
      software_name: "WORDPRESS VIDEO GALLERY",
      affected: [
        {
          prefix: "<=",
          version: "*",
        },
      ],
      fixed_in: null,
    },
  ],
  cvss_score: 6.5,
  cvss_vector: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:L/A:L",
  cvss_version: "3.1",
  cvss_rating: "Medium",
  cwe: null,
  published_at: null,
  updated_at: null,
  researchers: null,
  references: [
    "https://www.wordfence.com/threat-intel/vulnerabilities/id/029c3606-caba-4964-aefd-6000a1b4832d?source=api-prod",
  ],
  attribution:
    "Vulnerability information Copyright Defiant Inc. (Wordfence Intelligence), redistributed under the Wordfence Intelligence license (see README); CVE identifiers Copyright The MITRE Corporation (CVE Terms of Use).",
} as const;

/** WordPress core with a lower bound (introduced). */
export const CORE_SQLI = {
  id: "0114f098-713d-4eef-8643-901f607375de",
  source: "wordfence-intelligence",
  source_url:
    "https://www.wordfence.com/threat-intel/vulnerabilities/id/0114f098-713d-4eef-8643-901f607375de",
  cve: "CVE-2022-21664",
  title: "WordPress Core < 5.8.3 - SQL Injection via WP_Meta_Query",
  description:
    "WordPress is a free and open-source content management system written in PHP and paired with a MariaDB database. Due to lack of proper sanitization in one of the classes, there's potential for unintended SQL queries to be executed. This has been patched in WordPress version 5.8.3. Older affected versions are also fixed via security release, that go back till 4.1.34. We strongly recommend that you keep auto-updates enabled. There are no known workarounds for this issue.",
  vuln_type: "SQL Injection via WP_Meta_Query",
  software_type: "core",
  slug: "wordpress",
  software_name: "WordPress Core",
  affected: [
    {
      introduced: "5.8",
      introduced_inclusive: true,
      fixed: "5.8.3",
      prefix: "<",
      version: "5.8.3",
    },
  ],
  fixed_in: "5.8.3",
  affected_possibly_incomplete: true,
  software: [
    {
      software_type: "core",
      slug: "wordpress",
      software_name: "WordPress Core",
      affected: [
        {
          introduced: "5.8",
          introduced_inclusive: true,
          fixed: "5.8.3",
          prefix: "<",
          version: "5.8.3",
        },
      ],
      fixed_in: "5.8.3",
    },
  ],
  cvss_score: 7.4,
  cvss_vector: "CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:C/C:L/I:L/A:L",
  cvss_version: "3.1",
  cvss_rating: "High",
  cwe: null,
  published_at: null,
  updated_at: null,
  researchers: null,
  references: [
    "https://www.wordfence.com/threat-intel/vulnerabilities/id/0114f098-713d-4eef-8643-901f607375de?source=api-prod",
  ],
  attribution:
    "Vulnerability information Copyright Defiant Inc. (Wordfence Intelligence), redistributed under the Wordfence Intelligence license (see README); CVE identifiers Copyright The MITRE Corporation (CVE Terms of Use).",
} as const;

/** The plugin directory record of WEB_DIRECTORY_SQLI's plugin. */
export const WEB_DIRECTORY_PLUGIN = {
  slug: "web-directory-free",
  name: "Web Directory Free",
  version: "1.7.0",
  author: "salephpscripts.com",
  author_profile: "https://profiles.wordpress.org/mihail-chepovskiy/",
  contributors: ["shamalli"],
  requires: null,
  tested: "6.5.2",
  requires_php: null,
  rating: 82,
  num_ratings: 17,
  active_installs: 700,
  downloaded: 37411,
  last_updated: "2024-04-10 4:57pm GMT",
  added: "2018-05-23",
  homepage: "https://www.salephpscripts.com/wordpress_directory/",
  short_description:
    "Build Directory or Classifieds site in some minutes. The plugin combines flexibility of WordPress and functionality of Directory and Classifieds.",
  tags: ["Google Maps", "classifieds", "directory plugin", "listings", "mapbox openstreetmap"],
  business_model: null,
  versions: [
    "1.0.0",
    "1.0.1",
    "1.0.2",
    "1.0.3",
    "1.0.4",
    "1.0.5",
    "1.0.6",
    "1.0.7",
    "1.1.0",
    "1.1.1",
    "1.1.2",
    "1.1.3",
    "1.1.4",
    "1.2.0",
    "1.2.1",
    "1.3.0",
    "1.3.1",
    "1.3.2",
    "1.4.0",
    "1.4.1",
    "1.5.0",
    "1.5.1",
    "1.5.2",
    "1.5.3",
    "1.6.0",
    "1.6.1",
    "1.6.2",
    "1.6.3",
    "1.6.4",
    "1.6.5",
    "1.6.6",
    "1.6.7",
    "1.6.8",
    "1.6.9",
    "1.7.0",
  ],
  has_trunk_version: true,
  download_link: "https://downloads.wordpress.org/plugin/web-directory-free.1.7.0.zip",
  wordpress_org_url: "https://wordpress.org/plugins/web-directory-free/",
} as const;

/** SMASH_BALLOON_XSS exactly as the seed file has it, byte for byte. */
export const SMASH_BALLOON_XSS_LINE =
  '{"id":"01889c7b-f47b-4caf-8e35-4f8af188426e","source":"wordfence-intelligence","source_url":"https://www.wordfence.com/threat-intel/vulnerabilities/id/01889c7b-f47b-4caf-8e35-4f8af188426e","cve":"CVE-2021-25065","title":"Smash Balloon Social Post Feed <= 4.1 - Reflected Cross-Site Scripting","description":"The Smash Balloon Social Post Feed WordPress plugin before 4.1.1 was affected by a reflected XSS in custom-facebook-feed in cff-top admin page.","vuln_type":"Reflected Cross-Site Scripting","software_type":"plugin","slug":"custom-facebook-feed","software_name":"Smash Balloon Social Post Feed","affected":[{"fixed":"4.1.1","prefix":"<","version":"4.1.1"}],"fixed_in":"4.1.1","affected_possibly_incomplete":false,"software":[{"software_type":"plugin","slug":"custom-facebook-feed","software_name":"Smash Balloon Social Post Feed","affected":[{"fixed":"4.1.1","prefix":"<","version":"4.1.1"}],"fixed_in":"4.1.1"}],"cvss_score":5.4,"cvss_vector":"CVSS:3.1/AV:N/AC:L/PR:L/UI:R/S:C/C:L/I:L/A:N","cvss_version":"3.1","cvss_rating":"Medium","cwe":null,"published_at":null,"updated_at":null,"researchers":null,"references":["https://www.wordfence.com/threat-intel/vulnerabilities/id/01889c7b-f47b-4caf-8e35-4f8af188426e?source=api-prod"],"attribution":"Vulnerability information Copyright Defiant Inc. (Wordfence Intelligence), redistributed under the Wordfence Intelligence license (see README); CVE identifiers Copyright The MITRE Corporation (CVE Terms of Use)."}';
