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
export const REPORT_STATE_LABELS: Record<ReportState, string> = {
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
};

export function actionLabel(action: string): string {
  return ACTION_LABELS[action] ?? action.replaceAll("_", " ");
}

export function kindLabel(kind: string): string {
  return componentKindByValue.get(kind)?.label ?? kind;
}

export function vulnerabilityTypeLabel(code: number | null | undefined): string {
  if (code == null) return "Not set";
  return vulnerabilityTypeByCode.get(code)?.label ?? `Type ${code}`;
}

export function owaspLabel(code: number | null | undefined): string {
  if (code == null) return "Not set";
  const category = owaspCategoryByCode.get(code);
  return category ? `${category.key} ${category.label}` : `Category ${code}`;
}

export function privilegeLabel(code: number | null | undefined): string {
  if (code == null) return "Not set";
  return wordPressRoleByCode.get(code)?.label ?? `Role ${code}`;
}

export function rejectionReasonLabel(reason: string | null | undefined): string | null {
  if (!reason) return null;
  return REJECTION_REASONS.find((entry) => entry.value === reason)?.label ?? reason;
}

/** "<= 1.2.3", "< 2.0", "1.4 (this version only)". */
export function affectedVersionsLabel(prefix: string | null, version: string | null): string {
  if (!version) return "Not set";
  if (!prefix) return `${version} (this version only)`;
  const label = versionPrefixByValue.get(prefix)?.label.toLowerCase();
  return label ? `${prefix} ${version} (${label})` : `${prefix} ${version}`;
}

/** A date in words, in UTC so that the server's HTML and the browser's agree. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return "—";
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return date.toLocaleDateString("en-GB", {
    year: "numeric",
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  });
}

export function formatDateTime(value: string | null | undefined): string {
  if (!value) return "—";
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return `${date.toLocaleString("en-GB", {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZone: "UTC",
  })} UTC`;
}
