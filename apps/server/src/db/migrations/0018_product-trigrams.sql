-- Edited after drizzle-kit: the extension first. pg_trgm is in PostgreSQL's contrib package and is a
-- trusted extension (a database owner may create it); PGlite loads it (db/client.ts pgliteOptions).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "products_name_trgm_idx" ON "products" USING gin (lower("name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "products_slug_trgm_idx" ON "products" USING gin ("slug" gin_trgm_ops);
