-- Edited after drizzle-kit: the watchlist alerts' state moves beside the records (decision 031). The
-- alert job rewrote the wide `vulnerabilities` rows to clear their flag; every record it looked at left
-- a dead copy behind (the table grew from 160 to 391 MB at 250,000 records). The state is copied over
-- before the columns go, and the triggers now mark the narrow rows.
CREATE TABLE "vulnerability_alert_states" (
	"vulnerability_id" uuid PRIMARY KEY NOT NULL,
	"pending" boolean DEFAULT true NOT NULL,
	"fingerprint" text
);
--> statement-breakpoint
ALTER TABLE "vulnerability_alert_states" ADD CONSTRAINT "vulnerability_alert_states_vulnerability_id_vulnerabilities_id_fk" FOREIGN KEY ("vulnerability_id") REFERENCES "public"."vulnerabilities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
INSERT INTO "vulnerability_alert_states" ("vulnerability_id", "pending", "fingerprint")
  SELECT "id", "alert_pending", "alerted_fingerprint" FROM "vulnerabilities";--> statement-breakpoint
CREATE INDEX "vulnerability_alert_states_pending_idx" ON "vulnerability_alert_states" USING btree ("vulnerability_id") WHERE "vulnerability_alert_states"."pending";--> statement-breakpoint
DROP TRIGGER "vulnerabilities_alert_pending" ON "vulnerabilities";--> statement-breakpoint
DROP FUNCTION "vulnerabilities_alert_pending_trigger"();--> statement-breakpoint
DROP INDEX "vulnerabilities_alert_pending_idx";--> statement-breakpoint
ALTER TABLE "vulnerabilities" DROP COLUMN "alert_pending";--> statement-breakpoint
ALTER TABLE "vulnerabilities" DROP COLUMN "alerted_fingerprint";--> statement-breakpoint
-- A record inserted, or written with its severity or fix, is pending (bulk imports mark their records
-- themselves: db/import-vulnerabilities.ts).
CREATE FUNCTION "vulnerabilities_alert_state_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('pressguard.bulk_import', true) = 'on' THEN
    RETURN NULL;
  END IF;
  INSERT INTO vulnerability_alert_states (vulnerability_id, pending) VALUES (NEW.id, true)
  ON CONFLICT (vulnerability_id) DO UPDATE SET pending = true WHERE NOT vulnerability_alert_states.pending;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "vulnerabilities_alert_state" AFTER INSERT OR UPDATE OF severity, fixed_in ON "vulnerabilities"
  FOR EACH ROW EXECUTE FUNCTION "vulnerabilities_alert_state_trigger"();--> statement-breakpoint
-- A record whose ranges change is pending.
CREATE OR REPLACE FUNCTION "affected_ranges_alert_pending_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('pressguard.bulk_import', true) = 'on' THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO vulnerability_alert_states (vulnerability_id, pending)
      SELECT DISTINCT vulnerability_id, true FROM new_ranges
    ON CONFLICT (vulnerability_id) DO UPDATE SET pending = true WHERE NOT vulnerability_alert_states.pending;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE vulnerability_alert_states SET pending = true
    WHERE vulnerability_id IN (SELECT vulnerability_id FROM old_ranges) AND NOT pending;
  ELSE
    INSERT INTO vulnerability_alert_states (vulnerability_id, pending)
      SELECT vulnerability_id, true FROM new_ranges UNION SELECT vulnerability_id, true FROM old_ranges
    ON CONFLICT (vulnerability_id) DO UPDATE SET pending = true WHERE NOT vulnerability_alert_states.pending;
  END IF;
  RETURN NULL;
END
$$;
