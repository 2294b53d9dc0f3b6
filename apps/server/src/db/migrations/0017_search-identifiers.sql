CREATE INDEX "products_kind_lower_slug_idx" ON "products" USING btree ("kind",lower("slug"));--> statement-breakpoint
CREATE INDEX "vulnerabilities_cwe_idx" ON "vulnerabilities" USING btree ("cwe");--> statement-breakpoint
-- Edited after drizzle-kit: statistics of the new expression, or the planner reads every product for a
-- batch check until the next import analyses the table (PGlite has no autovacuum).
ANALYZE "products";
