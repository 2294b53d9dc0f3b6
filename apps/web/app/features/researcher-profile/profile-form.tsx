import { BIO_MAX_LENGTH, COUNTRIES, type OwnResearcherProfile, ResearcherProfile } from "@pressguard/domain";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { useApiClient } from "../../lib/api/client.ts";
import { FORM_ERROR_KEY } from "../../lib/form-errors.ts";
import { FormAlert, FormField } from "../../ui/form-field.tsx";
import { LoadThenEdit } from "../../ui/load-then-edit.tsx";
import { useSchemaForm } from "../../ui/use-schema-form.ts";
import {
  RESEARCHER_PROFILE_FAILURE,
  researcherProfileApi,
  researcherProfileKey,
  researcherProfileQuery,
} from "./api.ts";

const FIELDS = ["display_name", "country", "website", "github", "x", "mastodon", "linkedin", "bio"] as const;
type FieldName = (typeof FIELDS)[number];
type Values = Record<FieldName, string>;

function valuesOf(profile: OwnResearcherProfile): Values {
  return {
    display_name: profile.display_name ?? "",
    country: profile.country ?? "",
    website: profile.website ?? "",
    github: profile.github ?? "",
    x: profile.x ?? "",
    mastodon: profile.mastodon ?? "",
    linkedin: profile.linkedin ?? "",
    bio: profile.bio ?? "",
  };
}

interface ResearcherProfileFormProps {
  submitLabel: string;
  /** After a successful save, with the saved profile. */
  onSaved: (profile: OwnResearcherProfile) => void | Promise<void>;
  /** Shown beside the submit button (the settings page links to the public profile). */
  footer?: (profile: OwnResearcherProfile) => ReactNode;
}

/** The researcher profile form (PRODUCT.md §5): loads, validates with `ResearcherProfile`, saves. */
export function ResearcherProfileForm(props: ResearcherProfileFormProps) {
  const client = useApiClient();
  const profile = useQuery(researcherProfileQuery(client));
  return (
    <LoadThenEdit record={profile} failure={RESEARCHER_PROFILE_FAILURE}>
      {(loaded) => <ProfileFields profile={loaded} {...props} />}
    </LoadThenEdit>
  );
}

function ProfileFields({
  profile,
  submitLabel,
  onSaved,
  footer,
}: ResearcherProfileFormProps & { profile: OwnResearcherProfile }) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const form = useSchemaForm({
    schema: ResearcherProfile,
    fields: FIELDS,
    initialValues: () => valuesOf(profile),
    idPrefix: "researcher-profile",
    async onSubmit(data) {
      const answer = await researcherProfileApi.update(client, data);
      queryClient.setQueryData(researcherProfileKey, answer);
      form.setValues(valuesOf(answer));
      await onSaved(answer);
    },
  });
  const { values, errors, busy, idOf: id, inputProps: common, handleSubmit } = form;
  const text = (field: FieldName, type: string, autoComplete: string, placeholder?: string) => (
    <input type={type} autoComplete={autoComplete} placeholder={placeholder} {...common(field)} />
  );

  return (
    <form method="post" onSubmit={handleSubmit} noValidate className="space-y-5">
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField
          label="Display name"
          htmlFor={id("display_name")}
          errors={errors.display_name}
          hint="Shown on your public profile, the leaderboards and the vulnerabilities you are credited on."
        >
          {text("display_name", "text", "nickname")}
        </FormField>
        <FormField label="Country" htmlFor={id("country")} errors={errors.country} optional>
          <select {...common("country")}>
            <option value="">Not given</option>
            {COUNTRIES.map((country) => (
              <option key={country.code} value={country.code}>
                {country.name}
              </option>
            ))}
          </select>
        </FormField>
      </div>
      <FormField label="Website" htmlFor={id("website")} errors={errors.website} optional>
        {text("website", "url", "url", "https://")}
      </FormField>
      <fieldset className="space-y-5">
        <legend className="text-sm font-semibold text-slate-900">Social handles</legend>
        <div className="grid gap-5 sm:grid-cols-2">
          <FormField label="GitHub" htmlFor={id("github")} errors={errors.github} optional>
            {text("github", "text", "off", "octocat")}
          </FormField>
          <FormField label="X (Twitter)" htmlFor={id("x")} errors={errors.x} optional>
            {text("x", "text", "off", "@handle")}
          </FormField>
          <FormField label="Mastodon" htmlFor={id("mastodon")} errors={errors.mastodon} optional>
            {text("mastodon", "text", "off", "@user@instance.social")}
          </FormField>
          <FormField label="LinkedIn" htmlFor={id("linkedin")} errors={errors.linkedin} optional>
            {text("linkedin", "text", "off", "linkedin.com/in/your-name")}
          </FormField>
        </div>
      </fieldset>
      <FormField
        label="Bio"
        htmlFor={id("bio")}
        errors={errors.bio}
        optional
        hint={`Markdown, up to ${BIO_MAX_LENGTH.toLocaleString("en")} characters (${values.bio.length} used). HTML is shown as text, never run.`}
      >
        <textarea rows={6} {...common("bio")} />
      </FormField>
      <FormAlert messages={errors[FORM_ERROR_KEY]} />
      <div className="flex flex-wrap items-center gap-4">
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy ? "Saving…" : submitLabel}
        </button>
        {footer?.(profile)}
      </div>
    </form>
  );
}
