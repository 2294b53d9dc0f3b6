import { count, eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { products } from "../../db/schema/index.ts";

export function prepareProductQueries(db: Db) {
  const activeProgramCount = db
    .select({ value: count() })
    .from(products)
    .where(eq(products.isActive, true))
    .prepare("products_active_program_count");

  return {
    async countActivePrograms(): Promise<number> {
      const [row] = await activeProgramCount.execute();
      return row?.value ?? 0;
    },
  };
}

export type ProductQueries = ReturnType<typeof prepareProductQueries>;
