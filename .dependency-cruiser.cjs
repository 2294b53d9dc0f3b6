/**
 * The layers of ARCHITECTURE.md and docs/architecture.md, checked by `npm run lint:deps` (in
 * `npm run validate` and CI). Each rule names what may not import what; a new exception needs a
 * decision record, not an edit here.
 */
const SERVER = "^apps/server/src/";
const WEB = "^apps/web/app/";
/** Tests and the helpers only tests import. */
const TEST_CODE = "(\\.test\\.tsx?$|/test/|(testing|test-kit|test-database)\\.ts$)";

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "No import cycles: a module graph that can be read from the bottom up.",
      from: {},
      to: { circular: true },
    },
    {
      name: "apps-stay-apart",
      severity: "error",
      comment: "The server and the web app never import each other; what both need lives in packages/domain.",
      // The production smoke test walks the web app's route table to open every page.
      from: { path: "^apps/server/", pathNot: "\\.smoke\\.test\\.ts$" },
      to: { path: "^apps/web/" },
    },
    {
      name: "web-stays-off-the-server",
      severity: "error",
      comment: "The server and the web app never import each other; what both need lives in packages/domain.",
      from: { path: "^apps/web/" },
      to: { path: "^apps/server/" },
    },
    {
      name: "domain-imports-no-app",
      severity: "error",
      comment: "packages/domain is shared by both apps: it imports neither.",
      from: { path: "^packages/domain/" },
      to: { path: "^apps/" },
    },
    {
      name: "web-features-stay-apart",
      severity: "error",
      comment: "A feature folder does not import another feature: shared parts move to lib/ or ui/.",
      from: { path: `${WEB}features/([^/]+)/` },
      to: { path: `${WEB}features/`, pathNot: `${WEB}features/$1/` },
    },
    {
      name: "web-shared-code-imports-no-feature",
      severity: "error",
      comment: "lib/, ui/ and components/ sit below the features: they import no feature.",
      from: { path: `${WEB}(lib|ui|components)/` },
      to: { path: `${WEB}(features|routes|layouts)/` },
    },
    {
      name: "features-import-no-route",
      severity: "error",
      comment: "Route modules and layouts sit above the features: features import neither.",
      from: { path: `${WEB}features/` },
      to: { path: `${WEB}(routes|layouts)/` },
    },
    {
      name: "server-http-imports-no-module",
      severity: "error",
      comment: "http/ holds the HTTP plumbing every module uses: it imports no module.",
      from: { path: `${SERVER}http/` },
      to: { path: `${SERVER}modules/` },
    },
    {
      name: "db-imports-no-module",
      severity: "error",
      comment: "db/ (schema, client, migrations, import) sits below the modules.",
      from: { path: `${SERVER}db/` },
      to: { path: `${SERVER}modules/` },
    },
    {
      name: "routes-are-leaves",
      severity: "error",
      comment:
        "A module's routes.ts is HTTP only: no other module imports it (share the service or schema instead).",
      from: { path: `${SERVER}modules/([^/]+)/` },
      to: { path: `${SERVER}modules/([^/]+)/routes\\.ts$`, pathNot: `${SERVER}modules/$1/` },
    },
    {
      name: "shared-read-model-stands-alone",
      severity: "error",
      comment:
        "modules/public-records is the read model the modules that show records share (issue 36): it imports no module, so none reaches another through it.",
      from: { path: `${SERVER}modules/public-records/` },
      to: { path: `${SERVER}modules/(?!public-records/)` },
    },
    {
      name: "modules-meet-through-services",
      severity: "error",
      comment:
        "A module's SQL and context (queries.ts, *-queries.ts, context.ts, *-context.ts) are its own: other modules, the jobs and the composition use its service or its public.ts (issue 36).",
      // $1 is the importer's module (`modules/<name>`), or its top folder or file (`jobs`, `composition`).
      from: { path: `${SERVER}((?:modules/)?[^/]+)`, pathNot: TEST_CODE },
      to: { path: `${SERVER}modules/.*[/-](queries|context)\\.ts$`, pathNot: `${SERVER}$1/` },
    },
    {
      name: "modules-import-no-seed-import",
      severity: "error",
      comment: "The bulk import of the bundled data is a tool of db/, not a library for the modules.",
      from: { path: `${SERVER}modules/`, pathNot: TEST_CODE },
      to: { path: `${SERVER}db/(import|seed|first-start-seed)[^/]*\\.ts$` },
    },
    {
      name: "production-code-imports-no-test",
      severity: "error",
      comment: "Test helpers stay out of what ships.",
      from: { path: "^(apps|packages)/", pathNot: TEST_CODE },
      to: { path: TEST_CODE },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|build|\\.react-router)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
