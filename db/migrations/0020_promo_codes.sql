CREATE TABLE "promo_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"event_id" uuid,
	"kind" text NOT NULL,
	"percent_off" integer,
	"amount_off_pence" integer,
	"ticket_type_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"max_uses" integer,
	"valid_until" timestamp with time zone,
	"disabled_at" timestamp with time zone,
	"created_by_email" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "promo_codes_code_unique" UNIQUE("code"),
	CONSTRAINT "promo_codes_kind_known" CHECK ("promo_codes"."kind" in ('percent', 'fixed', 'free')),
	CONSTRAINT "promo_codes_percent_range" CHECK ("promo_codes"."percent_off" is null or "promo_codes"."percent_off" between 1 and 100),
	CONSTRAINT "promo_codes_amount_positive" CHECK ("promo_codes"."amount_off_pence" is null or "promo_codes"."amount_off_pence" > 0),
	CONSTRAINT "promo_codes_max_uses_positive" CHECK ("promo_codes"."max_uses" is null or "promo_codes"."max_uses" >= 1)
);
--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "promo_code_id" uuid;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "discount_pence" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "promo_codes" ADD CONSTRAINT "promo_codes_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "promo_codes_event_idx" ON "promo_codes" USING btree ("event_id");--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_promo_code_id_promo_codes_id_fk" FOREIGN KEY ("promo_code_id") REFERENCES "public"."promo_codes"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bookings_promo_code_idx" ON "bookings" USING btree ("promo_code_id");