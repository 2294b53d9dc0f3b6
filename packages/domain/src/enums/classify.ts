import type { WordPressRoleCode } from "./roles.ts";
import { VULNERABILITY_TYPE, type VulnerabilityTypeCode } from "./vulnerability-types.ts";

interface TypeRule {
  code: VulnerabilityTypeCode;
  pattern: RegExp;
}

/**
 * Keyword rules over the lower-cased label, from the wording of real Wordfence titles (typos
 * included: "Scritping", "Fogery", "Inlcusion" …).
 *
 * How a label is classified: every rule is searched, and the rule whose match STARTS EARLIEST in the
 * label wins; on a tie the rule listed first wins. Advisory titles name the root cause first and the
 * impact after "to" / "leading to" / "via", so the earliest match is the root cause:
 * "Cross-Site Request Forgery to Stored Cross-Site Scripting" is CSRF, "Missing Authorization to
 * Arbitrary File Deletion" is Broken Access Control, and generic words ("bypass", "disclosure",
 * "injection") only win when nothing more specific comes before them.
 */
const TYPE_RULES: readonly TypeRule[] = [
  { code: 6, pattern: /cross[\s-]*site[\s-]*request|\bx?csrf\b/ },
  { code: 12, pattern: /server[\s-]*side[\s-]*request|sever[\s-]*side[\s-]*request|\bssrf\b|open proxy/ },
  {
    code: 2,
    pattern:
      /cross[\s=-]*si?te[\s-]*scr|cross[\s-]*frame[\s-]*scr|\bxss\b|javascript (?:injection|execution)|script injection/,
  },
  { code: 1, pattern: /\bsql\b|\bsqli\b/ },
  {
    code: 13,
    pattern:
      /object[\s-]*(?:inject|objection)|objection inject|object instantiation|deseriali[sz]|\bphar\b|unseriali[sz]/,
  },
  { code: 20, pattern: /xml external entit|external entity|\bxxe\b/ },
  { code: 30, pattern: /template injection|\bssti\b/ },
  { code: 23, pattern: /csv inject|formula inject/ },
  {
    code: 36,
    pattern:
      /e-?mail (?:header )?injection|e-?mail sending|e-?mail relay|mail relay|open relay|open mailer|e-?mail forgery/,
  },
  { code: 24, pattern: /host header|header injection|cache poisoning|response splitting|\bcrlf\b/ },
  { code: 26, pattern: /command injection|os command|command execution/ },
  {
    code: 7,
    pattern:
      /remote (?:code|command) execution|\brce\b|\bcode execution|arbitrary (?:php )?code|arbitrary command/,
  },
  {
    code: 25,
    pattern:
      /code injection|php injection|eval injection|function injection|arbitrary (?:php )?(?:function|method) (?:call|execution)|(?:function|method|filter|hook) call|prototype pollution|ldap injection|xpath injection|expression language/,
  },
  { code: 32, pattern: /shortcode execution|arbitrary shortcode/ },
  { code: 31, pattern: /remote file incl|\brfi\b/ },
  {
    code: 5,
    pattern: /\blocal (?:[a-z]+ )?file in[a-z]*clu|\bfile incl|\bfile inlc|\blfi\b|local file include/,
  },
  { code: 14, pattern: /(?:directory|path|dir|folder) traversal|\.\.\// },
  { code: 4, pattern: /upload|uplaod|upoload/ },
  {
    code: 17,
    pattern:
      /(?:file|folder|directory|attachment file)s? (?:deletion|delete|removal)|delete arbitrary files?/,
  },
  {
    code: 18,
    pattern:
      /(?:file|files|log file) (?:read|downloa|access|retrieval|disclosure|exposure)|(?:read|download)(?:ing)? (?:of )?arbitrary/,
  },
  {
    code: 40,
    pattern:
      /file (?:write|writing|creation|create|overwrite|move|rename|modification|manipulation|copy|edit)|(?:write|create|overwrite) arbitrary files?/,
  },
  {
    code: 27,
    pattern:
      /(?:option|setting|usermeta|user meta|meta|configuration|config)s? (?:update|change|modification|deletion|import|export|manipulation|overwrite|reset|injection)|arbitrary (?:option|setting|usermeta|user meta)|options? update|settings? update/,
  },
  {
    code: 28,
    pattern:
      /(?:post|page|content|media|comment|attachment|user|order|product|term|entry|entries|data|event|booking|message|form|submission|record|image|note|review|item|lesson|course|table|widget|menu)s? (?:deletion|delete|removal|trashing)|arbitrary (?:post|page|content|media|comment|attachment) (?:deletion|delete|removal|trash)|database (?:wip|reset)|log reset|arbitrary (?!(?:file|folder|directory)\b)(?:[a-z]+ ){0,3}(?:deletion|removal)/,
  },
  {
    code: 35,
    pattern: /password (?:reset|recovery|change|update)|arbitrary (?:user )?password|weak password/,
  },
  {
    code: 8,
    pattern:
      /privilege|escalat|esclat|account takeover|role (?:change|modification|update|escalation)|(?:admin|administrator|administrative user|user|account)s? (?:account )?creation|registration restriction/,
  },
  { code: 16, pattern: /insecure direct object|\bidor\b/ },
  {
    code: 15,
    pattern:
      /authentication bypass|auth bypass|(?:2fa|two[\s-]*factor|otp|mfa|login|sso) (?:authentication )?bypass|bypass (?:authentication|2fa|login)|login as (?:any|arbitrary)|impersonat/,
  },
  {
    code: 22,
    pattern:
      /missing authentication|improper authentication|broken authentication|insufficient (?:authentication|randomness|entropy)|weak (?:otp|token|key|authentication|multi|pin|prng|random)|brute[\s-]*force|session fixation|session (?:hijack|termination|takeover|cookie)|hard[\s-]*coded|predictable (?:token|key|connect|otp)|authentication weakness|weak hash|cookie forgery|oauth/,
  },
  {
    code: 3,
    pattern:
      /auth?ori?n?[sz]ation|unauthori[sz]ed|(?:plugin|theme)s? (?:install|activat|deactivat|delet|status)|arbitrary (?:plugin|theme)|arbitrary (?!(?:file|folder|directory|option|setting)s?\b)(?:[a-z/]+,? ){0,3}(?:creation|modification|changes?)|access control|capabilit(?:y|ies) check|missing capabilit|permission check|unprotected (?:ajax|rest|action|api|endpoint|admin)|(?:missing|insufficient|improper|incorrect) (?:access|permission|nonce)/,
  },
  { code: 11, pattern: /open redirect|arbitrary redirect|unvalidated redirect|url redirect|redirection/ },
  { code: 33, pattern: /(?:full )?path (?:disclosure|dislcosure|dsiclosure|exposure)|\bfpd\b/ },
  {
    code: 9,
    pattern:
      /sensitive|information|disclos|dislcos|disclsoure|exposure|expose|\bleak|enumeration|directory listing|phpinfo|\bpii\b|\bexport\b|download|plain[\s-]*text|backup|arbitrary (?:post|page|custom field|post metadata)s?(?:\/[a-z]+)? access/,
  },
  {
    code: 19,
    pattern:
      /denial[\s-]*of[\s-]*service|\bdos\b|\bredos\b|resource exhaustion|resource consumption|infinite loop/,
  },
  { code: 42, pattern: /race[\s-]*condition|\btoctou\b|time[\s-]*of[\s-]*check/ },
  {
    code: 41,
    pattern: /backdoor|malicious (?:code|plugin|software|version)|malware|supply[\s-]*chain|compromised/,
  },
  { code: 38, pattern: /\bip (?:address )?spoof|x-forwarded-for|dns spoof/ },
  {
    code: 39,
    pattern:
      /payment|price|coupon|discount|checkout|refund|business logic|abuse of functionality|quantity|order (?:manipulation|completion|status)|free (?:purchase|order)/,
  },
  {
    code: 21,
    pattern:
      /content injection|content spoofing|html injection|css injection|text injection|link injection|iframe injection|spoofing|injection/,
  },
  {
    code: 34,
    pattern:
      /misconfigur|clickjack|tab[\s-]*nabbing|debug|insecure (?:default|configuration|permission|storage)/,
  },
  { code: 37, pattern: /captcha|protection|restriction bypass|bypass/ },
  {
    code: 10,
    pattern: /unspecified vulnerabilit|unknown vulnerabilit|multiple vulnerabilit|multiple issues/,
  },
];

/**
 * The vulnerability type code (1–42) of a source's type wording, e.g. the seed's `vuln_type`
 * "Authenticated (Contributor+) Stored Cross-Site Scripting via Shortcode" → 2.
 * Empty → Unknown (10); words that match no rule → Other (29).
 */
export function classifyVulnerabilityType(label: string | null | undefined): VulnerabilityTypeCode {
  const text = normalize(label ?? "");
  if (text === "") return VULNERABILITY_TYPE.unknown;
  let best: TypeRule | null = null;
  let bestIndex = Number.POSITIVE_INFINITY;
  for (const rule of TYPE_RULES) {
    const index = text.search(rule.pattern);
    if (index >= 0 && index < bestIndex) {
      best = rule;
      bestIndex = index;
    }
  }
  return best?.code ?? VULNERABILITY_TYPE.other;
}

const PRIVILEGE_PATTERN = /\b(unauthenticated)\b|\b((?:super[\s-]*|shop[\s-]*)?[a-z]+)\s*\+/gi;

/** A role word as titles write it, typos included ("Susbcriber+", "Contibutor+", "Admininstrator+"). */
function roleCodeOfWord(word: string): WordPressRoleCode | null {
  const text = word.toLowerCase().replace(/[\s_-]+/g, "");
  if (text === "unauthenticated") return 1;
  if (text.startsWith("superadmin")) return 7;
  if (text === "shopmanager") return 8;
  if (text.startsWith("admin")) return 6;
  if (/^su[bs]+c?r/.test(text)) return 2;
  if (/^cont?r?i?but/.test(text)) return 3;
  if (text === "author") return 4;
  if (text === "editor") return 5;
  if (text === "customer") return 9;
  return null;
}

/**
 * The WordPress role a vulnerability requires, read from Wordfence-style title wording:
 * "Unauthenticated …" → 1, "Authenticated (Subscriber+) …" → 2, "(Contributor+)" → 3, "(Author+)" → 4,
 * "(Editor+)" → 5, "(Administrator+)" / "(Admin+)" → 6, "(Super Admin+)" → 7, "(Shop Manager+)" → 8,
 * "(Customer+)" → 9. The first role mentioned wins ("Missing Authorization to Unauthenticated …" → 1);
 * plugin-specific roles ("(Instructor+)") are skipped; null when the title names no WordPress role
 * (including a bare "Authenticated").
 */
export function requiredPrivilegeFromTitle(title: string | null | undefined): WordPressRoleCode | null {
  for (const match of (title ?? "").matchAll(PRIVILEGE_PATTERN)) {
    const code = roleCodeOfWord(match[1] ?? match[2] ?? "");
    if (code !== null) return code;
  }
  return null;
}

function normalize(label: string): string {
  return label
    .toLowerCase()
    .replace(/[\u2010-\u2015]/g, "-")
    .replace(/\s+/g, " ")
    .trim();
}
