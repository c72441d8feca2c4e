CREATE TABLE "dav_locks" (
	"id" serial PRIMARY KEY NOT NULL,
	"token" text NOT NULL,
	"user_id" integer NOT NULL,
	"file_id" integer,
	"folder_id" integer,
	"scope" text NOT NULL,
	"depth" integer NOT NULL,
	"owner" text DEFAULT '' NOT NULL,
	"timeout_seconds" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dav_locks_token_key" UNIQUE("token")
);
--> statement-breakpoint
ALTER TABLE "dav_locks" ADD CONSTRAINT "dav_locks_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dav_locks" ADD CONSTRAINT "dav_locks_folder_id_folders_id_fk" FOREIGN KEY ("folder_id") REFERENCES "public"."folders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dav_locks_file_idx" ON "dav_locks" USING btree ("file_id");--> statement-breakpoint
CREATE INDEX "dav_locks_folder_idx" ON "dav_locks" USING btree ("folder_id");