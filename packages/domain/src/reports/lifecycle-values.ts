/** The states of a report (PRODUCT.md §2), in the order of its lifecycle. */
export const REPORT_STATES = [
  "submitted",
  "in_review",
  "rejected",
  "validated",
  "awaiting_fix",
  "fix_pending",
  "fixed",
  "published",
] as const;

/** Why staff reject a report (PRODUCT.md §2). */
export const REJECTION_REASONS = [
  { value: "duplicate", label: "Duplicate" },
  { value: "out_of_scope", label: "Out of scope" },
  { value: "invalid", label: "Invalid" },
  { value: "not_reproducible", label: "Not reproducible" },
  { value: "informative", label: "Informative" },
] as const;
