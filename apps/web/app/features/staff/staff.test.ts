import { describe, expect, it } from "vitest";
import { staffActionsFor } from "./report-actions.tsx";
import { queueFilterPath, queueStatusOf } from "./report-queue.tsx";

describe("the actions staff are offered", () => {
  const now = new Date("2026-03-01T12:00:00Z");
  const at = (status: Parameters<typeof staffActionsFor>[0]["status"], deadline: string | null = null) =>
    staffActionsFor({ status, fix_deadline_at: deadline }, now);

  it("follows the transition table of PRODUCT.md §2", () => {
    expect(at("submitted")).toEqual(["take_into_review"]);
    expect(at("in_review")).toEqual(["reject", "validate"]);
    expect(at("validated")).toEqual(["notify_vendor"]);
    expect(at("fix_pending")).toEqual(["mark_fix_insufficient", "verify_fix"]);
    expect(at("fixed")).toEqual(["publish"]);
  });

  it("offers nothing on a closed report", () => {
    expect(at("rejected")).toEqual([]);
    expect(at("published")).toEqual([]);
  });

  it("offers publishing unpatched only once the vendor's deadline has passed", () => {
    expect(at("awaiting_fix", "2026-03-10T00:00:00Z")).toEqual([]);
    expect(at("awaiting_fix", "2026-02-28T00:00:00Z")).toEqual(["publish_unpatched"]);
    expect(at("awaiting_fix", null)).toEqual([]);
  });
});

describe("the queue filter in the page URL", () => {
  it("reads the status leniently: new reports by default, all on request", () => {
    expect(queueStatusOf(new URLSearchParams(""))).toBe("submitted");
    expect(queueStatusOf(new URLSearchParams("status=fix_pending"))).toBe("fix_pending");
    expect(queueStatusOf(new URLSearchParams("status=all"))).toBeNull();
    expect(queueStatusOf(new URLSearchParams("status=<script>"))).toBe("submitted");
    expect(queueStatusOf(new URLSearchParams("status=no_vendor_contact"))).toBe("no_vendor_contact");
    expect(queueStatusOf(new URLSearchParams("status=deadline_passed"))).toBe("deadline_passed");
    expect(queueStatusOf(new URLSearchParams("status=cve_requested"))).toBe("cve_requested");
  });

  it("writes the tab links back", () => {
    expect(queueFilterPath("in_review")).toBe("/staff/reports?status=in_review");
    expect(queueFilterPath(null)).toBe("/staff/reports?status=all");
  });
});
