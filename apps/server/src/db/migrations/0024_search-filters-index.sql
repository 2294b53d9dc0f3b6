-- Edited after drizzle-kit: the extension first. btree_gin (PostgreSQL's contrib package, a trusted
-- extension a database owner may create; PGlite loads it, db/client.ts pgliteOptions) lets one GIN
-- index hold the search document and the scalar filters a search combines with its words.
CREATE EXTENSION IF NOT EXISTS btree_gin;--> statement-breakpoint
CREATE INDEX "vulnerabilities_search_filters_idx" ON "vulnerabilities" USING gin ("search_document","severity","product_kind","type_code");--> statement-breakpoint
DROP INDEX "vulnerabilities_search_document_idx";
