import type { MessageAnswer } from "@pressguard/domain";
import { useState } from "react";
import { useRootLoaderData } from "../../lib/public-config.ts";
import { useAuth } from "../../lib/use-auth.ts";
import { errorMessageOf } from "./form-fields.tsx";

/**
 * Reminds a signed-in user whose address is not confirmed yet (reports and program activation need
 * it), with a way to have the link sent again.
 */
export function EmailVerificationNotice() {
  const user = useRootLoaderData()?.user;
  const { api } = useAuth();
  const [message, setMessage] = useState<string | null>(null);
  if (user?.email_verified !== false) return null;

  async function resend() {
    try {
      const answer = await api.request<MessageAnswer>("/email/verification-notification", {
        method: "POST",
      });
      setMessage(answer.message);
    } catch (caught) {
      setMessage(errorMessageOf(caught));
    }
  }

  return (
    <div role="status" className="border-b border-amber-200 bg-amber-50 text-sm text-amber-900">
      <p className="page-container flex flex-wrap items-center gap-x-3 gap-y-1 py-2">
        <span>Please confirm your e-mail address with the link we sent you.</span>
        {message ? (
          <span>{message}</span>
        ) : (
          <button type="button" className="font-medium underline" onClick={() => void resend()}>
            Send the link again
          </button>
        )}
      </p>
    </div>
  );
}
