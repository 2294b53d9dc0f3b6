import { type InventoryKind, SOFTWARE_TYPES } from "@pressguard/domain";
import { data, Form } from "react-router";
import { checkSite } from "../../features/database/site-check.server.ts";
import { type CheckResults, SiteCheckResults } from "../../features/database/site-check-results.tsx";
import { readInventory } from "../../features/watchlists/inventory-reading.ts";
import { STATIC_PAGE } from "../../lib/route-handle.ts";
import { pageMeta } from "../../lib/seo.ts";
import { errorIdFor, FormAlert, FormField, INPUT_CLASS } from "../../ui/form-field.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import type { Route } from "./+types/check";

/**
 * "Check your site" (issue 20): a site owner pastes `wp plugin list --format=json` (or the theme list,
 * or a composer.lock) and sees which installed versions have known vulnerabilities. No account.
 */

/** A reading page: sent without JavaScript (decision 007), so the form posts to this route's action. */
export const handle = STATIC_PAGE;

export const meta = pageMeta(
  "Check your site",
  "Paste the plugin or theme list of your WordPress site and see which installed versions have known vulnerabilities.",
);

interface CheckState {
  text: string;
  kind: InventoryKind;
  wordpress: string;
  problems: string[];
  fieldErrors: { inventory?: string[]; wordpress?: string[] };
  formError?: string;
  results?: CheckResults;
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const text = String(form.get("inventory") ?? "");
  const kind: InventoryKind = form.get("kind") === "theme" ? "theme" : "plugin";
  const wordpress = String(form.get("wordpress") ?? "").trim();
  const state: CheckState = { text, kind, wordpress, problems: [], fieldErrors: {} };

  const inventory = readInventory({ text, kind, wordpress });
  if (!inventory.ok) {
    state.fieldErrors = inventory.errors;
    return data(state, 400);
  }
  state.problems = inventory.problems;

  const outcome = await checkSite(request, context, inventory.entries);
  if (!outcome.ok) {
    state.formError = outcome.message;
    // Over the visitor's budget (issue 38): the page, its message, 429 and the API's Retry-After.
    const headers = new Headers();
    if (outcome.retryAfter) headers.set("Retry-After", outcome.retryAfter);
    return data(state, { status: outcome.status, headers });
  }
  state.results = outcome.results;
  return state;
}

/** The action's Retry-After reaches the page's response (React Router keeps only cookies by default). */
export function headers({ actionHeaders }: Route.HeadersArgs) {
  return actionHeaders;
}

const LABEL = "block text-sm font-medium text-slate-700";

export default function CheckSitePage({ actionData }: Route.ComponentProps) {
  const state = actionData as CheckState | undefined;
  const kind = state?.kind ?? "plugin";
  const inventoryErrors = state?.fieldErrors.inventory;
  const wordpressErrors = state?.fieldErrors.wordpress;
  return (
    <>
      <PageHeader
        eyebrow="Public database"
        title="Check your site"
        lead="Paste the plugin or theme list of your WordPress site: see which installed versions have known vulnerabilities, and the version to update to. No account needed; nothing is stored."
      />
      <Form method="post" className="space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
        <fieldset>
          <legend className={LABEL}>What you paste lists</legend>
          <div className="mt-1 flex flex-wrap gap-x-6 gap-y-1">
            {SOFTWARE_TYPES.map(({ value }) => (
              <label key={value} className="inline-flex items-center gap-2 text-sm text-slate-800">
                <input type="radio" name="kind" value={value} defaultChecked={kind === value} />
                {value === "plugin" ? "Plugins" : "Themes"}
              </label>
            ))}
          </div>
        </fieldset>
        <FormField
          label="Your list"
          htmlFor="check-inventory"
          errors={inventoryErrors}
          hint={
            <>
              Run <code>wp plugin list --format=json</code> (or <code>wp theme list --format=json</code>) on
              your server and paste what it prints, or paste your <code>composer.lock</code> if you install
              through WPackagist.
            </>
          }
        >
          <textarea
            id="check-inventory"
            name="inventory"
            rows={10}
            defaultValue={state?.text ?? ""}
            spellCheck={false}
            aria-invalid={inventoryErrors ? true : undefined}
            aria-describedby={inventoryErrors ? errorIdFor("check-inventory") : undefined}
            placeholder='[{"name":"contact-form-7","status":"active","update":"available","version":"5.3.1"}]'
            className={`${INPUT_CLASS} font-mono text-sm`}
          />
        </FormField>
        <div className="max-w-xs">
          <FormField label="WordPress version" htmlFor="check-wordpress" errors={wordpressErrors} optional>
            <input
              id="check-wordpress"
              name="wordpress"
              type="text"
              inputMode="decimal"
              defaultValue={state?.wordpress ?? ""}
              placeholder="e.g. 6.4.2"
              maxLength={100}
              aria-invalid={wordpressErrors ? true : undefined}
              aria-describedby={wordpressErrors ? errorIdFor("check-wordpress") : undefined}
              className={INPUT_CLASS}
            />
          </FormField>
        </div>
        <button type="submit" className="btn-primary">
          Check
        </button>
      </Form>
      {state?.formError && (
        <div className="mt-6">
          <FormAlert messages={[state.formError]} />
        </div>
      )}
      {state?.problems && state.problems.length > 0 && (
        <div
          role="status"
          className="mt-6 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
        >
          <p className="font-semibold">About your list:</p>
          <ul className="mt-1 list-disc pl-5">
            {state.problems.map((problem, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: two problems may read the same.
              <li key={index} className="break-words">
                {problem}
              </li>
            ))}
          </ul>
        </div>
      )}
      {state?.results && <SiteCheckResults results={state.results} />}
    </>
  );
}
