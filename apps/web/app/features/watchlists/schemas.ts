/**
 * The request schema of the new-watchlist form, fetched with zod when the form is first changed
 * (`SchemaSource` in ui/use-schema-form.ts): the watchlists page loads no validator with the page
 * (issue 35). The same domain schema the API declares (decision 023).
 */
export { WatchlistCreation } from "@pressguard/domain";
