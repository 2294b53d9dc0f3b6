CREATE TABLE "product_claims" (
	"id" serial PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"vendor_id" integer NOT NULL,
	"requested_by" integer,
	"status" text DEFAULT 'pending' NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" integer,
	CONSTRAINT "product_claims_status_check" CHECK ("product_claims"."status" in ('pending', 'approved', 'rejected'))
);
--> statement-breakpoint
CREATE TABLE "reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"product_id" integer NOT NULL,
	"title" text NOT NULL,
	"status" text DEFAULT 'submitted' NOT NULL,
	"vendor_notified_at" timestamp with time zone,
	"fix_deadline_at" timestamp with time zone,
	"fixed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reports_status_check" CHECK ("reports"."status" in ('submitted', 'in_review', 'rejected', 'validated', 'awaiting_fix', 'fix_pending', 'fixed', 'published'))
);
--> statement-breakpoint
DROP INDEX "products_vendor_idx";--> statement-breakpoint
ALTER TABLE "vendors" ADD COLUMN "country" text;--> statement-breakpoint
ALTER TABLE "vendors" ADD COLUMN "account_completed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "plan" text DEFAULT 'free' NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "activated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "fix_deadline_days" smallint DEFAULT 30 NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "website_host" text GENERATED ALWAYS AS (lower(substring(vendor_website_url from '^[A-Za-z][A-Za-z0-9+.-]*://(?:www\.)?([^/:?#@]+)'))) STORED;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "product_host" text GENERATED ALWAYS AS (lower(substring(product_url from '^[A-Za-z][A-Za-z0-9+.-]*://(?:www\.)?([^/:?#@]+)'))) STORED;--> statement-breakpoint
ALTER TABLE "product_claims" ADD CONSTRAINT "product_claims_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_claims" ADD CONSTRAINT "product_claims_vendor_id_vendors_id_fk" FOREIGN KEY ("vendor_id") REFERENCES "public"."vendors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_claims" ADD CONSTRAINT "product_claims_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_claims" ADD CONSTRAINT "product_claims_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "product_claims_product_vendor_key" ON "product_claims" USING btree ("product_id","vendor_id");--> statement-breakpoint
CREATE INDEX "product_claims_status_idx" ON "product_claims" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "reports_product_status_idx" ON "reports" USING btree ("product_id","status");--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_vendor_id_vendors_id_fk" FOREIGN KEY ("vendor_id") REFERENCES "public"."vendors"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "researchers" ADD CONSTRAINT "researchers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "products_website_host_idx" ON "products" USING btree ("website_host");--> statement-breakpoint
CREATE INDEX "products_product_host_idx" ON "products" USING btree ("product_host");--> statement-breakpoint
CREATE INDEX "products_vendor_idx" ON "products" USING btree ("vendor_id","is_active","id");--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_plan_check" CHECK ("products"."plan" in ('free', 'premium', 'both'));--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_fix_deadline_days_check" CHECK ("products"."fix_deadline_days" between 7 and 90);--> statement-breakpoint
-- Programs are created on the WordPress platform even before any import ran.
INSERT INTO "platforms" ("slug", "name") VALUES ('wordpress', 'WordPress') ON CONFLICT ("slug") DO NOTHING;
