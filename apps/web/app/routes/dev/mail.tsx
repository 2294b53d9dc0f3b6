import { isApiError } from "../../lib/api/api-error.ts";
import { readForPage } from "../../lib/api/page-read.server.ts";
import { throwNotFound } from "../../lib/errors.ts";
import { pageMeta } from "../../lib/seo.ts";
import { PageHeader } from "../../ui/page-header.tsx";
import type { Route } from "./+types/mail";

export const meta = pageMeta(
  "Development mailbox",
  "Read the sign-in links, invitations and notifications a development server keeps instead of sending them.",
);

/** The development mailbox (ARCHITECTURE.md): what the product would have sent, newest first. */
export async function loader({ request, context }: Route.LoaderArgs) {
  try {
    return await readForPage({ request, context }, "/dev/mail");
  } catch (error) {
    // Switched off (production): the page does not exist.
    if (isApiError(error) && error.status === 404) throwNotFound();
    throw error;
  }
}

export default function DevMailPage({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <PageHeader
        title="Development mailbox"
        lead="E-mail the application stored instead of sending it, newest first. Off in production."
      />
      {loaderData.data.length === 0 ? (
        <p className="text-slate-600">No mail yet.</p>
      ) : (
        <ol className="space-y-4">
          {loaderData.data.map((mail) => (
            <li key={mail.id} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
              <article aria-label={mail.subject}>
                <h2 className="font-semibold text-slate-900">{mail.subject}</h2>
                <p className="text-sm text-slate-500">
                  To {mail.to} · {new Date(mail.created_at).toUTCString()} · {mail.status}
                </p>
                <pre className="mt-3 whitespace-pre-wrap text-sm text-slate-700">{mail.text}</pre>
              </article>
            </li>
          ))}
        </ol>
      )}
    </>
  );
}
