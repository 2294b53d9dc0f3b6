import {
  CommentSubmission,
  type ReportComment,
  type ReportDetail,
  type ReportEvent,
} from "@pressguard/domain";
import type { ReactNode } from "react";
import { messageOf } from "../lib/errors.ts";
import { actionLabel, type CommentVisibility, formatDateTime, stateLabel } from "../lib/reports.ts";
import { FormField } from "../ui/form-field.tsx";
import { Markdown } from "../ui/markdown.tsx";
import { useSchemaForm } from "../ui/use-schema-form.ts";

/**
 * The parts of a report page shared by the staff triage page and the vendor's preview (issue 7):
 * every untrusted text goes through ui/markdown.tsx, nothing is rendered as HTML.
 */

/** A card of the report page with its own heading. */
export function ReportCard({ title, children, id }: { title: string; children: ReactNode; id: string }) {
  return (
    <section aria-labelledby={id} className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id={id} className="text-base font-semibold text-slate-900">
        {title}
      </h2>
      <div className="mt-3">{children}</div>
    </section>
  );
}

/** Label → value pairs; empty values are left out. `narrow`: one column, for a side card. */
export function FactList({
  facts,
  narrow = false,
}: {
  facts: readonly [string, ReactNode][];
  narrow?: boolean;
}) {
  return (
    <dl className={`grid gap-x-6 gap-y-3 text-sm ${narrow ? "" : "sm:grid-cols-2"}`}>
      {facts
        .filter(([, value]) => value !== null && value !== undefined && value !== "")
        .map(([label, value]) => (
          <div key={label} className="min-w-0">
            <dt className="font-medium text-slate-500">{label}</dt>
            <dd className="mt-0.5 break-words text-slate-900">{value}</dd>
          </div>
        ))}
    </dl>
  );
}

/** Description, steps to reproduce, proof of concept and suggested fix, each as sanitised Markdown. */
export function ReportTexts({ report }: { report: ReportDetail }) {
  const texts: [string, string, string | null][] = [
    ["report-description", "Description", report.description],
    ["report-steps", "Steps to reproduce", report.steps_to_reproduce],
    ["report-poc", "Proof of concept", report.proof_of_concept],
    ["report-suggested-fix", "Suggested fix", report.suggested_fix],
  ];
  return (
    <>
      {texts
        .filter(([, , text]) => Boolean(text))
        .map(([id, title, text]) => (
          <ReportCard key={id} id={id} title={title}>
            <Markdown>{text ?? ""}</Markdown>
          </ReportCard>
        ))}
    </>
  );
}

/** Every transition as one entry: when, what, from → to, who (staff see the actor) and its note. */
export function ReportTimeline({ events }: { events: readonly ReportEvent[] }) {
  if (events.length === 0) return <p className="text-sm text-slate-600">Nothing has happened yet.</p>;
  return (
    <ol aria-label="Timeline" className="space-y-4 border-l-2 border-slate-200 pl-4">
      {events.map((event) => (
        <li key={`${event.created_at}-${event.action}-${event.to_state}`} className="relative">
          <span
            aria-hidden="true"
            className="absolute top-1.5 -left-[1.4rem] h-2.5 w-2.5 rounded-full bg-slate-400"
          />
          <p className="text-sm font-medium text-slate-900">
            {actionLabel(event.action)}
            {event.actor && <span className="font-normal text-slate-600"> by {event.actor.name}</span>}
          </p>
          <p className="text-xs text-slate-500">
            <time dateTime={event.created_at}>{formatDateTime(event.created_at)}</time>
            {event.from_state && ` · ${stateLabel(event.from_state)} → ${stateLabel(event.to_state)}`}
          </p>
          {event.note && (
            <div className="mt-1 rounded-md bg-slate-50 p-2">
              <Markdown>{event.note}</Markdown>
            </div>
          )}
        </li>
      ))}
    </ol>
  );
}

/** The conversation on a report; staff-only comments are marked as such. */
export function ReportComments({ comments }: { comments: readonly ReportComment[] }) {
  if (comments.length === 0) return <p className="text-sm text-slate-600">No comments yet.</p>;
  return (
    <ul aria-label="Comments" className="space-y-4">
      {comments.map((comment) => (
        <li
          key={comment.id}
          className={`rounded-md border p-3 ${
            comment.visibility === "staff" ? "border-amber-200 bg-amber-50" : "border-slate-200 bg-white"
          }`}
        >
          <p className="flex flex-wrap items-center gap-2 text-xs text-slate-600">
            <span className="font-semibold text-slate-900">{comment.author?.name ?? "Unknown"}</span>
            <time dateTime={comment.created_at}>{formatDateTime(comment.created_at)}</time>
            {comment.visibility === "staff" && (
              <span className="rounded-full bg-amber-200 px-2 py-0.5 font-semibold text-amber-950">
                Staff only
              </span>
            )}
          </p>
          <div className="mt-2">
            <Markdown>{comment.body}</Markdown>
          </div>
        </li>
      ))}
    </ul>
  );
}

interface CommentFormProps {
  /** Staff choose who reads the comment; others always write to the researcher, vendor and staff. */
  allowStaffOnly: boolean;
  pending: boolean;
  /** Resolves once saved (the form then clears); rejects with the message to show under the field. */
  onSubmit: (body: string, visibility: CommentVisibility) => Promise<void>;
}

export function CommentForm({ allowStaffOnly, pending, onSubmit }: CommentFormProps) {
  const form = useSchemaForm({
    schema: CommentSubmission,
    fields: ["body"],
    initialValues: {
      body: "",
      visibility: (allowStaffOnly ? "staff" : "vendor_researcher") as CommentVisibility,
    },
    idPrefix: "comment",
    async onSubmit(_checked, { body, visibility }) {
      await onSubmit(body, visibility);
      form.setValues((current) => ({ ...current, body: "" }));
    },
    errorsOf: (caught) => ({ body: [messageOf(caught)] }),
  });
  const { values, errors } = form;
  const visibilityRadio = (value: CommentVisibility) => ({
    type: "radio",
    name: "visibility",
    value,
    checked: values.visibility === value,
    onChange: () => form.set("visibility", value),
  });

  return (
    <form
      method="post"
      aria-label="Add a comment"
      onSubmit={form.handleSubmit}
      noValidate
      className="mt-4 space-y-3"
    >
      <FormField label="Comment" htmlFor="comment-body" errors={errors.body} hint="Markdown">
        <textarea rows={4} maxLength={20_000} {...form.inputProps("body")} />
      </FormField>
      {allowStaffOnly && (
        <fieldset>
          <legend className="text-sm font-medium text-slate-700">Who can read it</legend>
          <div className="mt-1 flex flex-wrap gap-4 text-sm text-slate-800">
            <label className="inline-flex items-center gap-2">
              <input {...visibilityRadio("staff")} />
              Staff only
            </label>
            <label className="inline-flex items-center gap-2">
              <input {...visibilityRadio("vendor_researcher")} />
              Researcher and vendor too
            </label>
          </div>
        </fieldset>
      )}
      <button type="submit" className="btn-secondary" disabled={pending}>
        {pending ? "Sending…" : "Add comment"}
      </button>
    </form>
  );
}
