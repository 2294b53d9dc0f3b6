ALTER TABLE "watchlists" DROP CONSTRAINT "watchlists_alert_mode_check";--> statement-breakpoint
ALTER TABLE "watchlists" ADD COLUMN "last_digest_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "watchlists" ADD CONSTRAINT "watchlists_alert_mode_check" CHECK ("watchlists"."alert_mode" in ('immediate', 'daily', 'off'));