DROP INDEX "popups_live_idx";--> statement-breakpoint
DROP INDEX "users_company_id_idx";