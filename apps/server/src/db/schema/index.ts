// Every table of the application, one file per area; drizzle-kit reads this file.
export * from "./accounts.ts";
export * from "./app-state.ts";
export * from "./data-sources.ts";
export * from "./forwarding.ts";
export * from "./idempotency.ts";
export * from "./programs.ts";
export * from "./public-database.ts";
export * from "./reports.ts";
export * from "./vendor-team.ts";
export * from "./watchlists.ts";
