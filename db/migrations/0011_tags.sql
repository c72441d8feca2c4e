CREATE TABLE "tag_activities" (
	"id" serial PRIMARY KEY NOT NULL,
	"tag_id" integer NOT NULL,
	"type" smallint NOT NULL,
	"actor_id" integer,
	"data" jsonb,
	"date" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tag_categories" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"name_key" text GENERATED ALWAYS AS (lower(normalize(name, NFC))) STORED NOT NULL,
	"color" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tag_links" (
	"tag_id" integer NOT NULL,
	"target_type" text NOT NULL,
	"target_id" integer NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tag_links_tag_id_target_type_target_id_pk" PRIMARY KEY("tag_id","target_type","target_id")
);
--> statement-breakpoint
CREATE TABLE "tags" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"name_key" text GENERATED ALWAYS AS (lower(normalize(name, NFC))) STORED NOT NULL,
	"category_id" integer,
	"owner_id" integer NOT NULL,
	"private" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tag_activities" ADD CONSTRAINT "tag_activities_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tag_links" ADD CONSTRAINT "tag_links_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tag_links" ADD CONSTRAINT "tag_links_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tags" ADD CONSTRAINT "tags_category_id_tag_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."tag_categories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tags" ADD CONSTRAINT "tags_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tag_activities_tag_id_idx" ON "tag_activities" USING btree ("tag_id","date");--> statement-breakpoint
CREATE UNIQUE INDEX "tag_categories_name_key_idx" ON "tag_categories" USING btree ("name_key");--> statement-breakpoint
CREATE INDEX "tag_links_target_idx" ON "tag_links" USING btree ("target_type","target_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tags_public_name_key_idx" ON "tags" USING btree ("name_key") WHERE NOT "tags"."private";--> statement-breakpoint
CREATE UNIQUE INDEX "tags_private_name_key_idx" ON "tags" USING btree ("owner_id","name_key") WHERE "tags"."private";--> statement-breakpoint
CREATE INDEX "tags_category_id_idx" ON "tags" USING btree ("category_id");