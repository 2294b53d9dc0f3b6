import { z } from "zod";
import { REJECTION_REASONS, REPORT_STATES } from "./lifecycle-values.ts";

// The states and the reasons live apart from the schemas, so a page that lists or labels them loads no
// zod (issue 35).
export { REJECTION_REASONS, REPORT_STATES } from "./lifecycle-values.ts";

/**
 * The report lifecycle of PRODUCT.md §2 as data: one table of actions, each with the states it
 * leaves from, the state it leads to and who may take it. The server enforces it in one place
 * (the reports service); the web reads the same table to show only the actions that would work.
 */
export type ReportState = (typeof REPORT_STATES)[number];
export const ReportState = z.enum(REPORT_STATES, {
  error: `status must be one of ${REPORT_STATES.join(", ")}.`,
});

export type RejectionReason = (typeof REJECTION_REASONS)[number]["value"];
export const RejectionReason = z.enum(
  REJECTION_REASONS.map((reason) => reason.value) as [RejectionReason, ...RejectionReason[]],
  { error: "reason must be one of duplicate, out_of_scope, invalid, not_reproducible, informative." },
);

/**
 * Who acts on a report: platform staff, a member of the vendor organisation owning the product,
 * or the product's contact e-mail holder who opened the PIN preview (a product with no program).
 */
export type ReportActor = "staff" | "vendor" | "pin_contact";

export const REPORT_ACTIONS = [
  "take_into_review",
  "reject",
  "validate",
  "notify_vendor",
  "submit_fix",
  "mark_fix_insufficient",
  "verify_fix",
  "publish",
  "publish_unpatched",
] as const;
export type ReportAction = (typeof REPORT_ACTIONS)[number];
/** An unknown or missing action's message: the transitions' body answers with it too. */
export const REPORT_ACTION_MESSAGE = `action must be one of ${REPORT_ACTIONS.join(", ")}.`;
export const ReportAction = z.enum(REPORT_ACTIONS, { error: REPORT_ACTION_MESSAGE });

export interface TransitionRule {
  from: readonly ReportState[];
  to: ReportState;
  actors: readonly ReportActor[];
  /** Completes "A report in {state} cannot be …" and names the action in the timeline. */
  phrase: string;
  /** Only once the vendor's fix deadline has passed (publishing unpatched). */
  needsDeadlinePassed?: boolean;
}

export const TRANSITIONS: Readonly<Record<ReportAction, TransitionRule>> = {
  take_into_review: { from: ["submitted"], to: "in_review", actors: ["staff"], phrase: "taken into review" },
  reject: { from: ["in_review"], to: "rejected", actors: ["staff"], phrase: "rejected" },
  validate: { from: ["in_review"], to: "validated", actors: ["staff"], phrase: "validated" },
  notify_vendor: {
    from: ["validated"],
    to: "awaiting_fix",
    actors: ["staff"],
    phrase: "sent to the vendor",
  },
  submit_fix: {
    from: ["awaiting_fix"],
    to: "fix_pending",
    actors: ["vendor", "pin_contact"],
    phrase: "given a fix",
  },
  mark_fix_insufficient: {
    from: ["fix_pending"],
    to: "awaiting_fix",
    actors: ["staff"],
    phrase: "marked as insufficiently fixed",
  },
  verify_fix: { from: ["fix_pending"], to: "fixed", actors: ["staff"], phrase: "verified as fixed" },
  publish: { from: ["fixed"], to: "published", actors: ["staff"], phrase: "published" },
  publish_unpatched: {
    from: ["awaiting_fix"],
    to: "published",
    actors: ["staff"],
    phrase: "published unpatched",
    needsDeadlinePassed: true,
  },
};

export type TransitionRefusal = "state" | "actor" | "deadline";

export type TransitionResult =
  | { ok: true; to: ReportState }
  | { ok: false; refusal: TransitionRefusal; message: string };

export interface TransitionContext {
  actor: ReportActor;
  /** When the vendor's fix deadline ends; null until the vendor was notified. */
  fixDeadlineAt?: Date | null;
  now?: Date;
}

/**
 * Whether `actor` may take `action` on a report in `state`, and where it leads. Never throws:
 * a refusal carries the message the API answers with (409 for state and deadline, 403 for actor).
 */
export function transitionOf(
  state: ReportState,
  action: ReportAction,
  { actor, fixDeadlineAt = null, now = new Date() }: TransitionContext,
): TransitionResult {
  const rule = TRANSITIONS[action];
  if (!rule.actors.includes(actor)) {
    return { ok: false, refusal: "actor", message: `Only ${actorsPhrase(rule.actors)} can do this.` };
  }
  if (!rule.from.includes(state)) {
    return { ok: false, refusal: "state", message: `A report in ${state} cannot be ${rule.phrase}.` };
  }
  if (rule.needsDeadlinePassed && (fixDeadlineAt === null || fixDeadlineAt.getTime() > now.getTime())) {
    return {
      ok: false,
      refusal: "deadline",
      message:
        fixDeadlineAt === null
          ? "A report can be published unpatched only after the vendor's fix deadline, and it has none."
          : `A report can be published unpatched only after the vendor's fix deadline (${fixDeadlineAt.toISOString()}).`,
    };
  }
  return { ok: true, to: rule.to };
}

/** The actions `actor` could take on a report in `state` (deadline not considered). */
export function actionsFrom(state: ReportState, actor: ReportActor): ReportAction[] {
  return REPORT_ACTIONS.filter(
    (action) => TRANSITIONS[action].from.includes(state) && TRANSITIONS[action].actors.includes(actor),
  );
}

function actorsPhrase(actors: readonly ReportActor[]): string {
  const names = actors.map((actor) =>
    actor === "staff" ? "staff" : actor === "vendor" ? "the vendor" : "the product's contact",
  );
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} or ${names.at(-1)}` : (names[0] ?? "");
}

/** States in which a report still counts as open for duplicate checks (not rejected). */
export const OPEN_REPORT_STATES: readonly ReportState[] = [
  "submitted",
  "in_review",
  "validated",
  "awaiting_fix",
  "fix_pending",
  "fixed",
];

/** States in which a report may be the original of a duplicate: still open, or published. */
export const DUPLICATE_CANDIDATE_REPORT_STATES: readonly ReportState[] = [...OPEN_REPORT_STATES, "published"];

/** PRODUCT.md §2: the researcher's profile tabs and the states each reads. */
export const RESEARCHER_REPORT_TABS = {
  "in-review": ["submitted", "in_review"],
  rejected: ["rejected"],
  validated: ["validated", "awaiting_fix", "fix_pending", "fixed"],
  published: ["published"],
} as const satisfies Record<string, readonly ReportState[]>;
export type ResearcherReportTab = keyof typeof RESEARCHER_REPORT_TABS;
export const ResearcherReportTab = z.enum(
  Object.keys(RESEARCHER_REPORT_TABS) as [ResearcherReportTab, ...ResearcherReportTab[]],
  { error: "tab must be one of in-review, rejected, validated, published." },
);

/** PRODUCT.md §2: the vendor's report tabs (awaiting_fix also lists validated reports). */
export const VENDOR_REPORT_TABS = {
  awaiting_fix: ["awaiting_fix", "validated"],
  fix_pending: ["fix_pending"],
  fixed: ["fixed", "published"],
} as const satisfies Record<string, readonly ReportState[]>;
export type VendorReportTab = keyof typeof VENDOR_REPORT_TABS;
export const VendorReportTab = z.enum(
  Object.keys(VENDOR_REPORT_TABS) as [VendorReportTab, ...VendorReportTab[]],
  { error: "tab must be one of awaiting_fix, fix_pending, fixed." },
);

/** States in which the vendor is shown its fix deadline: from notification until staff verify the fix. */
export const FIX_DEADLINE_REPORT_STATES: readonly ReportState[] = ["awaiting_fix", "fix_pending"];

/** States that keep a program's report open (`open_reports`): the vendor has something to fix. */
export const PROGRAM_OPEN_REPORT_STATES: readonly ReportState[] = [
  "validated",
  ...FIX_DEADLINE_REPORT_STATES,
];

/** States in which the owning vendor may read a report: from validation on. */
export const VENDOR_VISIBLE_REPORT_STATES: readonly ReportState[] = [
  "validated",
  "awaiting_fix",
  "fix_pending",
  "fixed",
  "published",
];
