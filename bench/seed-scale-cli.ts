import { loadConfig } from "../apps/server/src/config.ts";
import { openConfiguredDatabase } from "../apps/server/src/db/embedded-database.ts";
import { isDatabaseSeeded, seedDatabase } from "../apps/server/src/db/seed.ts";
import { scaleDatabase } from "./scale.ts";

/**
 * `npm run db:seed:scale`: the configured database (DATABASE_URL, else PGLITE_DIR) with the real
 * seed plus synthetic rows up to 60 000 products and 250 000 vulnerabilities, for load tests.
 */
const config = loadConfig();
const database = await openConfiguredDatabase(config.database);
try {
  const startedAt = performance.now();
  await database.migrate();
  if (!(await isDatabaseSeeded(database))) await seedDatabase(database);
  const scale = await scaleDatabase(database);
  console.info(
    `${database.kind}: ${scale.products} products, ${scale.vulnerabilities} vulnerabilities ` +
      `(${((performance.now() - startedAt) / 1000).toFixed(1)} s)`,
  );
} finally {
  await database.close();
}
