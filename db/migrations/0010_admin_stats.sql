CREATE TABLE "stats_samples" (
	"day" date PRIMARY KEY NOT NULL,
	"storage_used" bigint DEFAULT 0 NOT NULL,
	"active_users" integer DEFAULT 0 NOT NULL,
	"uploads" integer DEFAULT 0 NOT NULL,
	"downloads" integer DEFAULT 0 NOT NULL,
	"sampled_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "events_type_date_idx" ON "events" USING btree ("type","date");--> statement-breakpoint
CREATE INDEX "jobs_failed_idx" ON "jobs" USING btree ("id") WHERE "jobs"."status" = 'failed';