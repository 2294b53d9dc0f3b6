import {
  componentKindByValue,
  owaspCategoryByCode,
  REJECTION_REASONS,
  type ReportState,
  versionPrefixByValue,
  vulnerabilityTypeByCode,
  wordPressRoleByCode,
} from "@pressguard/domain";

/** A report's state in words (PRODUCT.md §2). */
const REPORT_STATE_LABELS: Record<ReportState, string> = {
  submitted: "Submitted",
  in_review: "In review",
  rejected: "Rejected",
  validated: "Validated",
  awaiting_fix: "Awaiting fix",
  fix_pending: "Fix pending",
  fixed: "Fixed",
  published: "Published",
};

export function stateLabel(state: string | null | undefined): string {
  if (!state) return "—";
  return REPORT_STATE_LABELS[state as ReportState] ?? state;
}

/** Timeline actions in words; `submit` is the report itself (decision 008). */
const ACTION_LABELS: Record<string, string> = {
  submit: "Report submitted",
  take_into_review: "Taken into review",
  reject: "Rejected",
  validate: "Validated",
  notify_vendor: "Sent to the vendor",
  submit_fix: "Fix submitted",
  mark_fix_insufficient: "Fix marked as insufficient",
  verify_fix: "Fix verified",
  publish: "Published",
  publish_unpatched: "Published unpatched",
  request_cve: "CVE id requested",
  record_cve: "CVE id recorded",
  remove_cve: "CVE id removed",
};

export function actionLabel(action: string): string {
  return ACTION_LABELS[action] ?? action.replaceAll("_", " ");
}

export function kindLabel(kind: string): string {
  return componentKindByValue.get(kind)?.label ?? kind;
}

/** Labels of a report's classification; null when the report has none (the page says what stands in). */
export function vulnerabilityTypeLabel(code: number | null | undefined): string | null {
  if (code == null) return null;
  return vulnerabilityTypeByCode.get(code)?.label ?? `Type ${code}`;
}

/** "A3 Injection": the category as the report form offers it (spec §3, A1 to A10). */
export function owaspLabel(code: number | null | undefined): string | null {
  if (code == null) return null;
  const category = owaspCategoryByCode.get(code);
  return category ? `${category.key} ${category.label}` : `Category ${code}`;
}

export function privilegeLabel(code: number | null | undefined): string | null {
  if (code == null) return null;
  return wordPressRoleByCode.get(code)?.label ?? `Role ${code}`;
}

export function rejectionReasonLabel(reason: string | null | undefined): string | null {
  if (!reason) return null;
  return REJECTION_REASONS.find((entry) => entry.value === reason)?.label ?? reason;
}

/** "<= 1.2.3 (less than or equal)", "< 2.0 (less than)", "1.4 (this version only)". */
export function affectedVersionsLabel(prefix: string | null, version: string | null): string | null {
  if (!version) return null;
  if (!prefix) return `${version} (this version only)`;
  const label = versionPrefixByValue.get(prefix)?.label.toLowerCase();
  return label ? `${prefix} ${version} (${label})` : `${prefix} ${version}`;
}
