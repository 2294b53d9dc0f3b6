/**
 * The request schemas of the sign-in and account forms, fetched with zod when a form is first changed
 * (`SchemaSource` in ui/use-schema-form.ts): the pages that show these forms load no validator with
 * the page (issue 35). The same domain schemas the API declares (decision 023).
 */
export { EmailedLinkRequest, PasswordReset, PasswordSignIn, Registration } from "@pressguard/domain";
