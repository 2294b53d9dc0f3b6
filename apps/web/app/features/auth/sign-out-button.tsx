import { useState } from "react";
import { useAuth } from "../../lib/use-auth.ts";
import { toast } from "../../ui/toast.ts";
import { errorMessageOf } from "./form-fields.tsx";

/** Ends the session on the server, then goes to the on-logout route (spec §4 "Logout"). */
export function SignOutButton({ className }: { className?: string }) {
  const auth = useAuth();
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      className={className}
      disabled={busy}
      onClick={() => {
        setBusy(true);
        auth.client
          .logout()
          .catch((error: unknown) => toast.error(errorMessageOf(error)))
          .finally(() => setBusy(false));
      }}
    >
      Sign out
    </button>
  );
}
