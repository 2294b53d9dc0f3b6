import {
  NOTICE_MAX_LENGTH,
  NOTICES_PER_DAY,
  ProductUserNoticeBody,
  type ProductUserNoticeList,
} from "@pressguard/domain";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useApiClient } from "../../lib/api/client.ts";
import { formatDay } from "../../lib/dates.ts";
import { FORM_ERROR_KEY } from "../../lib/form-errors.ts";
import { FormAlert, FormField, LoadError } from "../../ui/form-field.tsx";
import { toast } from "../../ui/toast.ts";
import { useSchemaForm } from "../../ui/use-schema-form.ts";
import { programKeys, programsApi, userNoticesQuery } from "./api.ts";

const FIELDS = ["message", "report_id"] as const;

const people = (count: number) => (count === 1 ? "1 user" : `${count} users`);

/**
 * Security notices to the product's users (issue 20, CRA Art. 14(8)): a message about a
 * vulnerability and what to do, e-mailed to everyone watching the product; the notices sent so far.
 */
export function UserNotices({ id }: { id: string }) {
  const client = useApiClient();
  const notices = useQuery(userNoticesQuery(client, id));
  return (
    <section
      aria-labelledby="program-user-notices"
      className="mt-8 rounded-lg border border-slate-200 bg-white p-6"
    >
      <h2 id="program-user-notices" className="text-lg font-semibold text-slate-900">
        Notify your users
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Tell the users of this product about a vulnerability and the measures to take (EU Cyber Resilience
        Act, Article 14(8)). Everyone watching the product on a watchlist gets your message by e-mail.
      </p>
      {notices.isError ? (
        <div className="mt-4">
          <LoadError message="Error fetching the notices" />
        </div>
      ) : !notices.data ? (
        <p className="mt-4 text-sm text-slate-600">Loading…</p>
      ) : (
        <>
          <NoticeForm id={id} notices={notices.data} />
          <SentNotices notices={notices.data} />
        </>
      )}
    </section>
  );
}

function NoticeForm({ id, notices }: { id: string; notices: ProductUserNoticeList }) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const form = useSchemaForm({
    schema: ProductUserNoticeBody,
    fields: FIELDS,
    idPrefix: "user-notice",
    initialValues: { message: "", report_id: "" },
    onSubmit: async (data) => {
      const sent = await programsApi.sendUserNotice(client, id, data);
      form.setValues({ message: "", report_id: "" });
      await queryClient.invalidateQueries({ queryKey: programKeys.userNotices(id) });
      toast.success(`Your notice was sent to ${people(sent.recipients)}.`);
    },
  });
  const { errors, busy, inputProps, idOf } = form;
  const exhausted = notices.remaining_today === 0;
  return (
    <form method="post" onSubmit={form.handleSubmit} noValidate className="mt-4 space-y-4">
      <p className="text-sm text-slate-700">
        {notices.watchers === 0
          ? "Nobody watches this product yet: a notice now reaches no one."
          : `${notices.watchers === 1 ? "1 user watches" : `${notices.watchers} users watch`} this product.`}{" "}
        {exhausted
          ? `You have sent ${NOTICES_PER_DAY} notices in the last 24 hours: try again tomorrow.`
          : `You can send ${notices.remaining_today} more today.`}
      </p>
      <FormField
        label="Message"
        htmlFor={idOf("message")}
        errors={errors.message}
        hint={`Plain text, up to ${NOTICE_MAX_LENGTH.toLocaleString("en")} characters: what is affected, and what users should do (update to a version, a workaround).`}
      >
        <textarea rows={6} maxLength={NOTICE_MAX_LENGTH} {...inputProps("message")} />
      </FormField>
      {notices.reports.length > 0 && (
        <FormField label="About the report" htmlFor={idOf("report_id")} errors={errors.report_id} optional>
          <select {...inputProps("report_id")}>
            <option value="">None</option>
            {notices.reports.map((report) => (
              <option key={report.id} value={report.id}>
                {report.title}
              </option>
            ))}
          </select>
        </FormField>
      )}
      <FormAlert messages={errors[FORM_ERROR_KEY]} />
      <button type="submit" className="btn-primary" disabled={busy || exhausted}>
        {busy ? "Sending…" : "Send the notice"}
      </button>
    </form>
  );
}

function SentNotices({ notices }: { notices: ProductUserNoticeList }) {
  if (notices.data.length === 0) return null;
  return (
    <div className="mt-6">
      <h3 className="font-semibold text-slate-900">Notices sent</h3>
      <ul className="mt-2 divide-y divide-slate-200 rounded-md border border-slate-200">
        {notices.data.map((notice) => (
          <li key={notice.id} className="space-y-1 p-3 text-sm">
            <p className="text-slate-500">
              {formatDay(notice.created_at)}
              {notice.sent_by ? ` by ${notice.sent_by}` : ""} · to {people(notice.recipients)}
              {notice.report_title ? ` · about “${notice.report_title}”` : ""}
            </p>
            <p className="whitespace-pre-line break-words text-slate-800">{notice.message}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}
