CREATE TABLE "captcha_solutions" (
	"signature" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_comments" (
	"id" serial PRIMARY KEY NOT NULL,
	"report_id" uuid NOT NULL,
	"author_user_id" integer,
	"body" text NOT NULL,
	"visibility" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "report_comments_visibility_check" CHECK ("report_comments"."visibility" in ('staff', 'vendor_researcher'))
);
--> statement-breakpoint
CREATE TABLE "report_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"report_id" uuid NOT NULL,
	"actor_user_id" integer,
	"action" text NOT NULL,
	"from_state" text,
	"to_state" text NOT NULL,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "researcher_id" integer;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "submitted_by_user_id" integer;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "reporter_email" text;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "affected_version_prefix" text;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "affected_version" text;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "type_code" smallint;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "owasp_code" smallint;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "required_privilege" smallint;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "description" text;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "steps_to_reproduce" text;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "proof_of_concept" text;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "suggested_fix" text;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "reported_cvss_vector" text;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "rejection_reason" text;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "fixed_version" text;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "cvss_vector" text;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "cvss_score" numeric(3, 1);--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "severity" text;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "cve" text;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "validated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "published_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "vulnerability_id" uuid;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "possible_duplicate_of" uuid;--> statement-breakpoint
ALTER TABLE "report_comments" ADD CONSTRAINT "report_comments_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_comments" ADD CONSTRAINT "report_comments_author_user_id_users_id_fk" FOREIGN KEY ("author_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_events" ADD CONSTRAINT "report_events_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_events" ADD CONSTRAINT "report_events_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "captcha_solutions_expires_idx" ON "captcha_solutions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "report_comments_report_idx" ON "report_comments" USING btree ("report_id","created_at","id");--> statement-breakpoint
CREATE INDEX "report_events_report_idx" ON "report_events" USING btree ("report_id","created_at","id");--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_researcher_id_researchers_id_fk" FOREIGN KEY ("researcher_id") REFERENCES "public"."researchers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_submitted_by_user_id_users_id_fk" FOREIGN KEY ("submitted_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_vulnerability_id_vulnerabilities_id_fk" FOREIGN KEY ("vulnerability_id") REFERENCES "public"."vulnerabilities"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reports_researcher_status_idx" ON "reports" USING btree ("researcher_id","status","created_at");--> statement-breakpoint
CREATE INDEX "reports_status_created_idx" ON "reports" USING btree ("status","created_at");--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_rejection_reason_check" CHECK ("reports"."rejection_reason" in ('duplicate', 'out_of_scope', 'invalid', 'not_reproducible', 'informative'));--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_affected_version_prefix_check" CHECK ("reports"."affected_version_prefix" in ('<=', '<', ''));