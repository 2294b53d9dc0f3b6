import { OWASP_CATEGORIES, VULNERABILITY_TYPES, WORDPRESS_ROLES } from "@pressguard/domain";
import type { ComponentProps } from "react";
import { owaspLabel } from "../lib/report-labels.ts";
import { FormField } from "../ui/form-field.tsx";

/** The classification of a report, each a select of codes (spec §3). */
type ClassificationField = "vulnerability_type" | "owasp_category" | "required_privilege";

interface ClassificationSelectsProps {
  /** The form's parts (`useSchemaForm`): each form keeps its own element ids. */
  form: {
    errors: Readonly<Record<string, readonly string[] | undefined>>;
    idOf: (field: ClassificationField) => string;
    inputProps: (field: ClassificationField) => ComponentProps<"select">;
  };
  /** The OWASP select's label. */
  owaspCategoryLabel: string;
  privilegeHint?: string;
  /** Holds the category and the privilege in an element of this class (say, side by side). */
  pairClassName?: string;
}

/**
 * The vulnerability type, the OWASP category and the required privilege, as the report form
 * (section 2) and the staff validation ask for them: the same options and empty choices.
 */
export function ClassificationSelects({
  form: { errors, idOf, inputProps },
  owaspCategoryLabel,
  privilegeHint,
  pairClassName,
}: ClassificationSelectsProps) {
  const categoryAndPrivilege = (
    <>
      <FormField label={owaspCategoryLabel} htmlFor={idOf("owasp_category")} errors={errors.owasp_category}>
        <select {...inputProps("owasp_category")}>
          <option value="">Choose a category…</option>
          {OWASP_CATEGORIES.map((category) => (
            <option key={category.code} value={category.code}>
              {owaspLabel(category.code)}
            </option>
          ))}
        </select>
      </FormField>
      <FormField
        label="Required privilege"
        htmlFor={idOf("required_privilege")}
        errors={errors.required_privilege}
        hint={privilegeHint}
      >
        <select {...inputProps("required_privilege")}>
          <option value="">Choose a role…</option>
          {WORDPRESS_ROLES.map((role) => (
            <option key={role.code} value={role.code}>
              {role.label}
            </option>
          ))}
        </select>
      </FormField>
    </>
  );
  return (
    <>
      <FormField
        label="Vulnerability type"
        htmlFor={idOf("vulnerability_type")}
        errors={errors.vulnerability_type}
      >
        <select {...inputProps("vulnerability_type")}>
          <option value="">Choose a type…</option>
          {VULNERABILITY_TYPES.map((type) => (
            <option key={type.code} value={type.code}>
              {type.label}
            </option>
          ))}
        </select>
      </FormField>
      {pairClassName ? <div className={pairClassName}>{categoryAndPrivilege}</div> : categoryAndPrivilege}
    </>
  );
}
