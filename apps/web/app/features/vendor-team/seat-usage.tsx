import type { SeatUsage } from "@pressguard/domain";
import { Link } from "../../ui/link.tsx";

/** "3 of 20 seats", with a bar; a full free plan points at the upgrade. */
export function SeatUsageBar({ seats }: { seats: SeatUsage }) {
  const full = seats.used >= seats.limit;
  const percent = Math.min(100, Math.round((seats.used / Math.max(1, seats.limit)) * 100));
  return (
    <div>
      <p className="text-sm text-slate-700">
        <span className="font-semibold text-slate-900">
          {seats.used} of {seats.limit} seats
        </span>{" "}
        used — members and open invitations.
      </p>
      <div
        className="mt-2 h-2 w-full overflow-hidden rounded-full bg-slate-200"
        role="progressbar"
        aria-label="Seats used"
        aria-valuemin={0}
        aria-valuemax={seats.limit}
        aria-valuenow={seats.used}
      >
        <div
          className={`h-full ${full ? "bg-amber-500" : "bg-slate-900"}`}
          style={{ width: `${percent}%` }}
        />
      </div>
      {full && (
        <p
          role="note"
          className="mt-3 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
        >
          All seats are taken. Remove a member or revoke an invitation to invite someone else
          {seats.plan === "free" ? (
            <>
              , or{" "}
              <Link to="/vdp/account/subscription" className="link">
                upgrade to Paid
              </Link>{" "}
              for 20 seats
            </>
          ) : null}
          .
        </p>
      )}
    </div>
  );
}
