import { describe, expect, it } from "vitest";
import {
  actionsFrom,
  REPORT_ACTIONS,
  REPORT_STATES,
  RESEARCHER_REPORT_TABS,
  type ReportAction,
  type ReportActor,
  type ReportState,
  transitionOf,
  VENDOR_REPORT_TABS,
} from "./lifecycle.ts";

/** PRODUCT.md §2, written out independently of TRANSITIONS: [action, from, to, who]. */
const ALLOWED: [ReportAction, ReportState, ReportState, ReportActor[]][] = [
  ["take_into_review", "submitted", "in_review", ["staff"]],
  ["reject", "in_review", "rejected", ["staff"]],
  ["validate", "in_review", "validated", ["staff"]],
  ["notify_vendor", "validated", "awaiting_fix", ["staff"]],
  ["submit_fix", "awaiting_fix", "fix_pending", ["vendor", "pin_contact"]],
  ["mark_fix_insufficient", "fix_pending", "awaiting_fix", ["staff"]],
  ["verify_fix", "fix_pending", "fixed", ["staff"]],
  ["publish", "fixed", "published", ["staff"]],
  ["publish_unpatched", "awaiting_fix", "published", ["staff"]],
];
const ACTORS: ReportActor[] = ["staff", "vendor", "pin_contact"];

const past = new Date("2026-01-01T00:00:00Z");
const now = new Date("2026-02-01T00:00:00Z");
const future = new Date("2026-03-01T00:00:00Z");

describe("the report lifecycle (PRODUCT.md §2)", () => {
  const cases = REPORT_STATES.flatMap((state) => REPORT_ACTIONS.map((action) => ({ state, action })));

  it.each(cases)("$action from $state: allowed exactly as PRODUCT.md §2 draws it", ({ state, action }) => {
    const rule = ALLOWED.find(([name, from]) => name === action && from === state);
    for (const actor of ACTORS) {
      const result = transitionOf(state, action, { actor, fixDeadlineAt: past, now });
      if (rule?.[3].includes(actor)) {
        expect(result).toEqual({ ok: true, to: rule[2] });
      } else {
        expect(result.ok).toBe(false);
      }
    }
  });

  it("refuses an action from the wrong state with a message naming the state", () => {
    expect(transitionOf("awaiting_fix", "reject", { actor: "staff" })).toEqual({
      ok: false,
      refusal: "state",
      message: "A report in awaiting_fix cannot be rejected.",
    });
    expect(transitionOf("published", "publish", { actor: "staff" })).toMatchObject({
      refusal: "state",
      message: "A report in published cannot be published.",
    });
  });

  it("refuses staff-only actions to vendors and the vendor's fix to staff", () => {
    expect(transitionOf("in_review", "validate", { actor: "vendor" })).toEqual({
      ok: false,
      refusal: "actor",
      message: "Only staff can do this.",
    });
    expect(transitionOf("awaiting_fix", "submit_fix", { actor: "staff" })).toEqual({
      ok: false,
      refusal: "actor",
      message: "Only the vendor or the product's contact can do this.",
    });
  });

  it("publishes unpatched only once the deadline has passed", () => {
    expect(
      transitionOf("awaiting_fix", "publish_unpatched", { actor: "staff", fixDeadlineAt: past, now }),
    ).toEqual({ ok: true, to: "published" });
    expect(
      transitionOf("awaiting_fix", "publish_unpatched", { actor: "staff", fixDeadlineAt: future, now }),
    ).toMatchObject({ ok: false, refusal: "deadline" });
    expect(
      transitionOf("awaiting_fix", "publish_unpatched", { actor: "staff", fixDeadlineAt: null, now }),
    ).toMatchObject({ ok: false, refusal: "deadline" });
  });

  it("lists the actions an actor can take from a state", () => {
    expect(actionsFrom("in_review", "staff")).toEqual(["reject", "validate"]);
    expect(actionsFrom("awaiting_fix", "staff")).toEqual(["publish_unpatched"]);
    expect(actionsFrom("awaiting_fix", "vendor")).toEqual(["submit_fix"]);
    expect(actionsFrom("published", "staff")).toEqual([]);
    expect(actionsFrom("rejected", "staff")).toEqual([]);
  });

  it("maps every state to exactly one researcher tab and the vendor's states to its tabs", () => {
    const researcherStates = Object.values(RESEARCHER_REPORT_TABS).flat();
    expect([...researcherStates].sort()).toEqual([...REPORT_STATES].sort());
    expect(VENDOR_REPORT_TABS).toEqual({
      awaiting_fix: ["awaiting_fix", "validated"],
      fix_pending: ["fix_pending"],
      fixed: ["fixed", "published"],
    });
  });
});
