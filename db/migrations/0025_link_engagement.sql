-- Issue 30: document engagement on link shares. A link's gate (shares.gate), the visitors who
-- passed it and their access tokens (link_access_tokens.visitor_id), email codes (link_codes.email),
-- visits and their append-only page events, per-visit page totals, and the daily tables retention keeps.
CREATE TABLE "link_engagement_days" (
	"share_id" integer NOT NULL,
	"day" date NOT NULL,
	"visits" integer DEFAULT 0 NOT NULL,
	"visitors" integer DEFAULT 0 NOT NULL,
	"ms" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "link_engagement_days_share_id_day_pk" PRIMARY KEY("share_id","day")
);
--> statement-breakpoint
CREATE TABLE "link_page_days" (
	"share_id" integer NOT NULL,
	"file_id" integer NOT NULL,
	"page" integer NOT NULL,
	"day" date NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	"ms" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "link_page_days_share_id_file_id_page_day_pk" PRIMARY KEY("share_id","file_id","page","day")
);
--> statement-breakpoint
CREATE TABLE "link_page_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"share_id" integer NOT NULL,
	"visit_id" bigint NOT NULL,
	"visitor_id" integer NOT NULL,
	"file_id" integer NOT NULL,
	"page" integer NOT NULL,
	"ms" integer NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "link_visit_pages" (
	"visit_id" bigint NOT NULL,
	"share_id" integer NOT NULL,
	"visitor_id" integer NOT NULL,
	"file_id" integer NOT NULL,
	"page" integer NOT NULL,
	"ms" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "link_visit_pages_visit_id_page_pk" PRIMARY KEY("visit_id","page")
);
--> statement-breakpoint
CREATE TABLE "link_visitors" (
	"id" serial PRIMARY KEY NOT NULL,
	"share_id" integer NOT NULL,
	"email" text,
	"verified_at" timestamp with time zone,
	"agreement_at" timestamp with time zone,
	"agreement_ip" text,
	"agreement_text" text,
	"ip" text,
	"first_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "link_visits" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"share_id" integer NOT NULL,
	"visitor_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"file_id" integer NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "link_access_tokens" ADD COLUMN "visitor_id" integer;--> statement-breakpoint
ALTER TABLE "link_codes" ADD COLUMN "email" text;--> statement-breakpoint
ALTER TABLE "shares" ADD COLUMN "gate" jsonb;--> statement-breakpoint
ALTER TABLE "link_engagement_days" ADD CONSTRAINT "link_engagement_days_share_id_shares_id_fk" FOREIGN KEY ("share_id") REFERENCES "public"."shares"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "link_page_days" ADD CONSTRAINT "link_page_days_share_id_shares_id_fk" FOREIGN KEY ("share_id") REFERENCES "public"."shares"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "link_page_events" ADD CONSTRAINT "link_page_events_share_id_shares_id_fk" FOREIGN KEY ("share_id") REFERENCES "public"."shares"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "link_visit_pages" ADD CONSTRAINT "link_visit_pages_visit_id_link_visits_id_fk" FOREIGN KEY ("visit_id") REFERENCES "public"."link_visits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "link_visitors" ADD CONSTRAINT "link_visitors_share_id_shares_id_fk" FOREIGN KEY ("share_id") REFERENCES "public"."shares"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "link_visits" ADD CONSTRAINT "link_visits_share_id_shares_id_fk" FOREIGN KEY ("share_id") REFERENCES "public"."shares"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "link_visits" ADD CONSTRAINT "link_visits_visitor_id_link_visitors_id_fk" FOREIGN KEY ("visitor_id") REFERENCES "public"."link_visitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "link_page_events_share_idx" ON "link_page_events" USING btree ("share_id","at");--> statement-breakpoint
CREATE INDEX "link_page_events_visit_idx" ON "link_page_events" USING btree ("visit_id");--> statement-breakpoint
CREATE INDEX "link_visit_pages_share_idx" ON "link_visit_pages" USING btree ("share_id","file_id","page");--> statement-breakpoint
CREATE INDEX "link_visitors_share_idx" ON "link_visitors" USING btree ("share_id","email");--> statement-breakpoint
CREATE INDEX "link_visits_share_idx" ON "link_visits" USING btree ("share_id","started_at");--> statement-breakpoint
CREATE INDEX "link_visits_visitor_idx" ON "link_visits" USING btree ("visitor_id");