/**
 * The report form's request schemas, fetched with zod when the form is first changed (`SchemaSource`
 * in ui/use-schema-form.ts), as the captcha is: the report page loads no validator with the page
 * (issue 35). The same domain schemas the API declares (decision 023).
 */
export { ReportSubmission, SignedOutReportSubmission } from "@pressguard/domain";
