CREATE TABLE "watch_alerts" (
	"id" serial PRIMARY KEY NOT NULL,
	"watchlist_id" uuid NOT NULL,
	"vulnerability_id" uuid NOT NULL,
	"fingerprint" text NOT NULL,
	"change" text NOT NULL,
	"kind" text NOT NULL,
	"slug" text NOT NULL,
	"version" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"emailed_at" timestamp with time zone,
	CONSTRAINT "watch_alerts_change_check" CHECK ("watch_alerts"."change" in ('new', 'changed'))
);
--> statement-breakpoint
ALTER TABLE "vulnerabilities" ADD COLUMN "alert_pending" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "vulnerabilities" ADD COLUMN "alerted_fingerprint" text;--> statement-breakpoint
ALTER TABLE "watchlists" ADD COLUMN "alert_mode" text DEFAULT 'immediate' NOT NULL;--> statement-breakpoint
ALTER TABLE "watch_alerts" ADD CONSTRAINT "watch_alerts_watchlist_id_watchlists_id_fk" FOREIGN KEY ("watchlist_id") REFERENCES "public"."watchlists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watch_alerts" ADD CONSTRAINT "watch_alerts_vulnerability_id_vulnerabilities_id_fk" FOREIGN KEY ("vulnerability_id") REFERENCES "public"."vulnerabilities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "watch_alerts_once_key" ON "watch_alerts" USING btree ("watchlist_id","vulnerability_id","fingerprint");--> statement-breakpoint
CREATE INDEX "vulnerabilities_alert_pending_idx" ON "vulnerabilities" USING btree ("id") WHERE "vulnerabilities"."alert_pending";--> statement-breakpoint
ALTER TABLE "watchlists" ADD CONSTRAINT "watchlists_alert_mode_check" CHECK ("watchlists"."alert_mode" in ('immediate', 'off'));--> statement-breakpoint
-- Edited after drizzle-kit: what marks a record for the watchlist alert job (decision 031). A record
-- inserted, or written with its severity or fix, and a record whose ranges change are pending; the
-- job compares their fingerprint with the one last alerted on. Bulk imports set
-- `pressguard.bulk_import` and write `alert_pending` themselves (db/import-vulnerabilities.ts).
CREATE OR REPLACE FUNCTION "vulnerabilities_alert_pending_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('pressguard.bulk_import', true) = 'on' THEN
    RETURN NEW;
  END IF;
  NEW.alert_pending := true;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "vulnerabilities_alert_pending" BEFORE INSERT OR UPDATE OF severity, fixed_in ON "vulnerabilities"
  FOR EACH ROW EXECUTE FUNCTION "vulnerabilities_alert_pending_trigger"();--> statement-breakpoint
CREATE OR REPLACE FUNCTION "affected_ranges_alert_pending_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('pressguard.bulk_import', true) = 'on' THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    UPDATE vulnerabilities SET alert_pending = true
    WHERE id IN (SELECT vulnerability_id FROM new_ranges) AND NOT alert_pending;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE vulnerabilities SET alert_pending = true
    WHERE id IN (SELECT vulnerability_id FROM old_ranges) AND NOT alert_pending;
  ELSE
    UPDATE vulnerabilities SET alert_pending = true
    WHERE id IN (SELECT vulnerability_id FROM new_ranges UNION SELECT vulnerability_id FROM old_ranges)
      AND NOT alert_pending;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "affected_ranges_alert_pending_insert" AFTER INSERT ON "affected_ranges"
  REFERENCING NEW TABLE AS new_ranges FOR EACH STATEMENT EXECUTE FUNCTION "affected_ranges_alert_pending_trigger"();--> statement-breakpoint
CREATE TRIGGER "affected_ranges_alert_pending_update" AFTER UPDATE ON "affected_ranges"
  REFERENCING NEW TABLE AS new_ranges OLD TABLE AS old_ranges FOR EACH STATEMENT EXECUTE FUNCTION "affected_ranges_alert_pending_trigger"();--> statement-breakpoint
CREATE TRIGGER "affected_ranges_alert_pending_delete" AFTER DELETE ON "affected_ranges"
  REFERENCING OLD TABLE AS old_ranges FOR EACH STATEMENT EXECUTE FUNCTION "affected_ranges_alert_pending_trigger"();--> statement-breakpoint
-- The records already here get their fingerprint on the job's first run; no watchlist existed before
-- migration 0027, so that run alerts nobody.
UPDATE "vulnerabilities" SET "alert_pending" = true;
