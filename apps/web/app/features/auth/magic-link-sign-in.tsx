import { useEffect, useRef, useState } from "react";
import { useAuth } from "../../lib/use-auth.ts";
import { Link } from "../../ui/link.tsx";
import { errorMessageOf, FormError } from "./form-fields.tsx";

/**
 * Uses a magic link in the browser, not during server rendering: mail scanners that fetch links
 * do not run scripts, so they cannot spend the single use. On success the root redirect takes over.
 */
export function MagicLinkSignIn({ uuid }: { uuid: string }) {
  const auth = useAuth();
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    auth.client
      .signInWith(`/magic-link/${encodeURIComponent(uuid)}`)
      .then(() => window.location.assign("/"))
      .catch((caught: unknown) => setError(errorMessageOf(caught)));
  }, [auth, uuid]);

  if (!error) return <p className="text-sm text-slate-600">Signing you in…</p>;
  return (
    <div className="space-y-4">
      <FormError message={error} />
      <p className="text-sm text-slate-600">
        Ask for a new link on the{" "}
        <Link to="/vdp/login" className="link">
          vendor login
        </Link>{" "}
        or the{" "}
        <Link to="/researchers/login" className="link">
          researcher login
        </Link>{" "}
        page.
      </p>
    </div>
  );
}
