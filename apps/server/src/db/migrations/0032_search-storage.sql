-- The search's heap reads (issue 17). A record's search document is read for every match (its rank),
-- and in one row in nine, PostgreSQL's default `extended` storage had moved it out of line: each such
-- match cost a TOAST index lookup. `main` keeps it in the row, compressed if need be. Rows written
-- before keep their layout until rewritten (`VACUUM FULL vulnerabilities`, README's production checklist).
-- At 250,000 records, `contact form&severity=high`'s statement: 1.95 ms → 1.45 ms (bench/README.md).
ALTER TABLE "vulnerabilities" ALTER COLUMN "search_document" SET STORAGE MAIN;--> statement-breakpoint
-- GIN's pending list (fastupdate) is read in full by every search until it is merged, and only
-- autovacuum merges it: PGlite has none, so after the first import 446 pages (3.5 MB) stayed pending
-- and a search of the bundled data took 3.2 ms instead of 1.1. Imports now merge what they leave
-- (db/import.ts); this merges what is pending already. (A smaller gin_pending_list_limit would bound
-- the list for later writes too, but made PGlite's first import 2 s slower.)
SELECT gin_clean_pending_list('vulnerabilities_search_filters_idx'::regclass);--> statement-breakpoint
SELECT gin_clean_pending_list('products_search_idx'::regclass);
