import {
  PLAN_CHANGE_NOTE_MAX,
  StaffPlanChange,
  type StaffVendor,
  SUBSCRIPTION_PLANS,
  subscriptionPlanOf,
} from "@pressguard/domain";
import { useInfiniteQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useSearchParams } from "react-router";
import { useApiClient } from "../../lib/api/client.ts";
import { FORM_ERROR_KEY } from "../../lib/form-errors.ts";
import { formatDay } from "../../lib/reports.ts";
import { FormAlert, FormField, INPUT_CLASS, LoadError } from "../../ui/form-field.tsx";
import { LoadMoreButton } from "../../ui/load-more-table.tsx";
import { useSchemaForm } from "../../ui/use-schema-form.ts";
import { staffVendorListQuery, useStaffPlanChange } from "./vendors-api.ts";

/** The search of `/staff/vendors` lives in the URL (`?q=`), read leniently. */
function vendorSearchOf(search: URLSearchParams): string {
  return (search.get("q") ?? "").trim().slice(0, 200);
}

/**
 * `/staff/vendors`: find a vendor by name or contact e-mail, see its plan and seats, and change the
 * plan by hand with a note (PRODUCT.md §4) — under the vendor's own rules, so a downgrade the
 * vendor must prepare (seats, webhooks) is refused with what to ask the vendor for.
 */
export function StaffVendors() {
  const [searchParams, setSearchParams] = useSearchParams();
  const search = vendorSearchOf(searchParams);
  const [draft, setDraft] = useState(search);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next = draft.trim();
    setSearchParams(next ? { q: next } : {});
  }

  return (
    <>
      <search className="mb-6 block">
        <form
          method="get"
          aria-label="Search vendors"
          onSubmit={submit}
          className="flex max-w-xl flex-wrap items-end gap-3"
        >
          <div className="min-w-0 flex-1">
            <label htmlFor="vendor-search" className="block text-sm font-medium text-slate-700">
              Vendor name or contact e-mail
            </label>
            <input
              id="vendor-search"
              name="q"
              type="search"
              value={draft}
              maxLength={200}
              onChange={(event) => setDraft(event.target.value)}
              className={INPUT_CLASS}
            />
          </div>
          <button type="submit" className="btn-primary">
            Search
          </button>
        </form>
      </search>
      <VendorList key={search} search={search} />
    </>
  );
}

function VendorList({ search }: { search: string }) {
  const client = useApiClient();
  const list = useInfiniteQuery(staffVendorListQuery(client, search));
  if (list.isError) return <LoadError message="Error fetching vendors" />;
  if (!list.data)
    return (
      <p className="text-slate-600" aria-busy="true">
        Loading vendors…
      </p>
    );
  const vendors = list.data.pages.flatMap((page) => page.data);
  const total = list.data.pages[0]?.pagination.total ?? vendors.length;
  if (vendors.length === 0)
    return (
      <p className="rounded-lg border border-slate-200 bg-white p-6 text-slate-600">
        {search ? `No vendor matches “${search}”.` : "No vendor has registered yet."}
      </p>
    );
  return (
    <>
      <p className="mb-3 text-sm text-slate-600">
        Showing {vendors.length} of {total} {total === 1 ? "vendor" : "vendors"}
      </p>
      <ul aria-label="Vendors" className="space-y-3">
        {vendors.map((vendor) => (
          <VendorCard key={vendor.id} vendor={vendor} />
        ))}
      </ul>
      <LoadMoreButton list={list} />
    </>
  );
}

function VendorCard({ vendor }: { vendor: StaffVendor }) {
  const [changing, setChanging] = useState(false);
  const plan = subscriptionPlanOf(vendor.plan);
  return (
    <li aria-label={vendor.vendor_name} className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <h2 className="text-lg font-semibold break-words text-slate-900">{vendor.vendor_name}</h2>
          <p className="text-sm break-all text-slate-600">{vendor.contact_email}</p>
        </div>
        <span
          className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${
            vendor.plan === "premium" ? "bg-lime-100 text-lime-900" : "bg-slate-100 text-slate-700"
          }`}
        >
          {plan.label} plan
        </span>
      </div>
      <p className="mt-2 text-sm text-slate-600">
        {vendor.seats_used} of {vendor.seat_limit} seats used · {vendor.webhooks}{" "}
        {vendor.webhooks === 1 ? "webhook" : "webhooks"} · registered {formatDay(vendor.created_at)}
      </p>
      {changing ? (
        <PlanChangeForm vendor={vendor} onDone={() => setChanging(false)} />
      ) : (
        <button type="button" className="btn-secondary mt-4" onClick={() => setChanging(true)}>
          Change plan…
        </button>
      )}
    </li>
  );
}

const FIELDS = ["plan", "note"] as const;

function PlanChangeForm({ vendor, onDone }: { vendor: StaffVendor; onDone: () => void }) {
  const change = useStaffPlanChange();
  const otherPlan = SUBSCRIPTION_PLANS.find((plan) => plan.value !== vendor.plan)?.value ?? "free";
  const {
    errors,
    busy,
    idOf: id,
    inputProps,
    handleSubmit,
  } = useSchemaForm({
    schema: StaffPlanChange,
    fields: FIELDS,
    initialValues: { plan: otherPlan, note: "" },
    idPrefix: `vendor-${vendor.id}`,
    async onSubmit(data) {
      await change.mutateAsync({ id: vendor.id, change: data });
      onDone();
    },
  });

  return (
    <form
      method="post"
      aria-label={`Change the plan of ${vendor.vendor_name}`}
      onSubmit={handleSubmit}
      noValidate
      className="mt-4 max-w-xl space-y-3"
    >
      <FormField label="New plan" htmlFor={id("plan")} errors={errors.plan}>
        <select {...inputProps("plan")}>
          {SUBSCRIPTION_PLANS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label} ({option.price} {option.currency} a month)
              {option.value === vendor.plan ? " — current" : ""}
            </option>
          ))}
        </select>
      </FormField>
      <FormField
        label="Note for the record"
        htmlFor={id("note")}
        errors={errors.note}
        hint="Why the plan changes, e.g. the vendor's request or how they paid. The vendor does not see it."
      >
        <textarea rows={2} maxLength={PLAN_CHANGE_NOTE_MAX} {...inputProps("note")} />
      </FormField>
      <FormAlert messages={errors[FORM_ERROR_KEY]} />
      <div className="flex gap-2">
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy ? "Changing…" : "Change plan"}
        </button>
        <button type="button" className="btn-secondary" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
