import { useParams } from "react-router";
import { ConfirmForwarding } from "../features/report-forwarding/confirm-forwarding.tsx";
import { pageMeta } from "../lib/seo.ts";

export const meta = pageMeta(
  "Confirm report forwarding",
  "Confirm that a vendor may forward its vulnerability report events to your e-mail address.",
);

/** The mailed link of an e-mail forwarding target (issue 8): public, confirmed by a POST. */
export default function ForwardingConfirmPage() {
  const { token } = useParams();
  return <ConfirmForwarding token={token ?? ""} />;
}
