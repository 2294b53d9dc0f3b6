CREATE TABLE "exploitation_notices" (
	"report_id" uuid PRIMARY KEY NOT NULL,
	"aware_at" timestamp with time zone NOT NULL,
	"marked_by" integer,
	"marked_at" timestamp with time zone DEFAULT now() NOT NULL,
	"early_warning_submitted_at" timestamp with time zone,
	"notification_submitted_at" timestamp with time zone,
	"final_report_submitted_at" timestamp with time zone,
	"reminders_sent" text[] DEFAULT '{}'::text[] NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_user_notices" (
	"id" serial PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"report_id" uuid,
	"message" text NOT NULL,
	"sent_by" integer,
	"recipients" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "forward_events" ALTER COLUMN "vendor_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "forward_targets" ALTER COLUMN "vendor_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "forward_events" ADD COLUMN "watchlist_id" uuid;--> statement-breakpoint
ALTER TABLE "forward_targets" ADD COLUMN "watchlist_id" uuid;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "policy_markdown" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "policy_updated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "security_contact_email" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "support_ends_on" date;--> statement-breakpoint
ALTER TABLE "exploitation_notices" ADD CONSTRAINT "exploitation_notices_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exploitation_notices" ADD CONSTRAINT "exploitation_notices_marked_by_users_id_fk" FOREIGN KEY ("marked_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_user_notices" ADD CONSTRAINT "product_user_notices_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_user_notices" ADD CONSTRAINT "product_user_notices_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_user_notices" ADD CONSTRAINT "product_user_notices_sent_by_users_id_fk" FOREIGN KEY ("sent_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "product_user_notices_product_idx" ON "product_user_notices" USING btree ("product_id","created_at");--> statement-breakpoint
ALTER TABLE "forward_events" ADD CONSTRAINT "forward_events_watchlist_id_watchlists_id_fk" FOREIGN KEY ("watchlist_id") REFERENCES "public"."watchlists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forward_targets" ADD CONSTRAINT "forward_targets_watchlist_id_watchlists_id_fk" FOREIGN KEY ("watchlist_id") REFERENCES "public"."watchlists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "forward_targets_watchlist_idx" ON "forward_targets" USING btree ("watchlist_id");--> statement-breakpoint
ALTER TABLE "forward_targets" ADD CONSTRAINT "forward_targets_owner_check" CHECK (("forward_targets"."vendor_id" is null) <> ("forward_targets"."watchlist_id" is null) and ("forward_targets"."watchlist_id" is null or "forward_targets"."kind" = 'webhook'));