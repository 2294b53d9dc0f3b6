-- Edited after drizzle-kit (comment only): "fixed in a later version", inferred (issue 17). The values
-- are computed in TypeScript with the domain's version order (db/infer-fixed.ts), not here: every
-- import fills them at its end, so a database imported before this migration gets them with its next
-- import (`npm run db:import -- data/seed/wordpress-vulns/plugins.jsonl.gz` is enough).
ALTER TABLE "affected_ranges" ADD COLUMN "inferred_fixed_from" text;--> statement-breakpoint
ALTER TABLE "vulnerabilities" ADD COLUMN "inferred_fixed_from" text;
