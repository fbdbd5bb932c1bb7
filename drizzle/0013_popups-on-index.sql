DROP INDEX "popups_best_idx";--> statement-breakpoint
CREATE INDEX "popups_on_idx" ON "popups" USING btree ("priority" DESC NULLS FIRST,"end_at","created_at","id") WHERE "popups"."is_active";