CREATE TABLE "company_stats" (
	"company_id" uuid PRIMARY KEY NOT NULL,
	"employees" integer DEFAULT 0 NOT NULL,
	"verified_employees" integer DEFAULT 0 NOT NULL,
	"participants" integer DEFAULT 0 NOT NULL,
	"family_members" integer DEFAULT 0 NOT NULL,
	"last_activity_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "enrolled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "company_stats" ADD CONSTRAINT "company_stats_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;