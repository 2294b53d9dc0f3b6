CREATE TABLE "affected_ranges" (
	"id" serial PRIMARY KEY NOT NULL,
	"vulnerability_id" uuid NOT NULL,
	"product_id" integer NOT NULL,
	"position" smallint DEFAULT 0 NOT NULL,
	"introduced" text,
	"introduced_inclusive" boolean DEFAULT true NOT NULL,
	"fixed" text,
	"last_affected" text,
	"prefix" text NOT NULL,
	"version" text NOT NULL,
	"fixed_in" text,
	CONSTRAINT "affected_ranges_prefix_check" CHECK ("affected_ranges"."prefix" in ('<=', '<', ''))
);
--> statement-breakpoint
CREATE TABLE "app_state" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credits" (
	"vulnerability_id" uuid NOT NULL,
	"researcher_id" integer NOT NULL,
	"position" smallint DEFAULT 0 NOT NULL,
	"role" text DEFAULT 'finder' NOT NULL,
	CONSTRAINT "credits_vulnerability_id_researcher_id_pk" PRIMARY KEY("vulnerability_id","researcher_id")
);
--> statement-breakpoint
CREATE TABLE "platforms" (
	"id" serial PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "platforms_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" serial PRIMARY KEY NOT NULL,
	"platform_id" integer NOT NULL,
	"kind" text NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"version" text,
	"product_url" text,
	"description" text,
	"dependencies" text,
	"vendor_contact_email" text,
	"vendor_website_url" text,
	"is_active" boolean DEFAULT false NOT NULL,
	"is_lobby_product" boolean DEFAULT false NOT NULL,
	"vendor_id" integer,
	"author" text,
	"active_installs" integer,
	"rating" smallint,
	"num_ratings" integer,
	"requires_wp" text,
	"tested_wp" text,
	"requires_php" text,
	"directory_updated" text,
	"directory_added" date,
	"directory_url" text,
	"tags" text[],
	"versions" text[],
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "products_kind_check" CHECK ("products"."kind" in ('plugin', 'theme', 'core'))
);
--> statement-breakpoint
CREATE TABLE "researchers" (
	"id" serial PRIMARY KEY NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"display_name" text NOT NULL,
	"credit_key" text,
	"user_id" integer,
	"country" text,
	"website" text,
	"bio" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "researchers_uuid_unique" UNIQUE("uuid"),
	CONSTRAINT "researchers_credit_key_unique" UNIQUE("credit_key")
);
--> statement-breakpoint
CREATE TABLE "vulnerabilities" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"product_id" integer NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"type_label" text,
	"type_code" smallint,
	"owasp_code" smallint,
	"required_privilege" smallint,
	"cvss_vector" text,
	"cvss_score" numeric(3, 1),
	"cvss_version" text,
	"severity" text,
	"cve" text,
	"cwe" text,
	"references" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"fixed_in" text,
	"patched" boolean DEFAULT false NOT NULL,
	"affected_possibly_incomplete" boolean DEFAULT false NOT NULL,
	"published_at" timestamp with time zone,
	"source_updated_at" timestamp with time zone,
	"source" text NOT NULL,
	"source_url" text,
	"attribution" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "vulnerabilities_slug_unique" UNIQUE("slug"),
	CONSTRAINT "vulnerabilities_severity_check" CHECK ("vulnerabilities"."severity" in ('none', 'low', 'medium', 'high', 'critical'))
);
--> statement-breakpoint
ALTER TABLE "affected_ranges" ADD CONSTRAINT "affected_ranges_vulnerability_id_vulnerabilities_id_fk" FOREIGN KEY ("vulnerability_id") REFERENCES "public"."vulnerabilities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "affected_ranges" ADD CONSTRAINT "affected_ranges_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credits" ADD CONSTRAINT "credits_vulnerability_id_vulnerabilities_id_fk" FOREIGN KEY ("vulnerability_id") REFERENCES "public"."vulnerabilities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credits" ADD CONSTRAINT "credits_researcher_id_researchers_id_fk" FOREIGN KEY ("researcher_id") REFERENCES "public"."researchers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_platform_id_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."platforms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vulnerabilities" ADD CONSTRAINT "vulnerabilities_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "affected_ranges_vuln_product_position_key" ON "affected_ranges" USING btree ("vulnerability_id","product_id","position");--> statement-breakpoint
CREATE INDEX "affected_ranges_product_idx" ON "affected_ranges" USING btree ("product_id");--> statement-breakpoint
CREATE INDEX "credits_researcher_idx" ON "credits" USING btree ("researcher_id");--> statement-breakpoint
CREATE UNIQUE INDEX "products_platform_kind_slug_key" ON "products" USING btree ("platform_id","kind","slug");--> statement-breakpoint
CREATE INDEX "products_vendor_idx" ON "products" USING btree ("vendor_id");--> statement-breakpoint
CREATE INDEX "products_active_idx" ON "products" USING btree ("is_active");--> statement-breakpoint
CREATE INDEX "researchers_user_idx" ON "researchers" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "vulnerabilities_product_idx" ON "vulnerabilities" USING btree ("product_id");--> statement-breakpoint
CREATE INDEX "vulnerabilities_cve_idx" ON "vulnerabilities" USING btree ("cve");--> statement-breakpoint
CREATE INDEX "vulnerabilities_published_idx" ON "vulnerabilities" USING btree ("published_at");