CREATE TABLE "booking_answers" (
	"booking_ref" uuid NOT NULL,
	"question_id" uuid NOT NULL,
	"attendee" integer DEFAULT 0 NOT NULL,
	"answer" text NOT NULL,
	CONSTRAINT "booking_answers_booking_ref_question_id_attendee_pk" PRIMARY KEY("booking_ref","question_id","attendee"),
	CONSTRAINT "booking_answers_attendee_not_negative" CHECK ("booking_answers"."attendee" >= 0)
);
--> statement-breakpoint
CREATE TABLE "booking_items" (
	"booking_ref" uuid NOT NULL,
	"ticket_type_id" uuid NOT NULL,
	"quantity" integer NOT NULL,
	"price_pence" integer NOT NULL,
	"seats_per_ticket" integer NOT NULL,
	"refunded" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "booking_items_booking_ref_ticket_type_id_pk" PRIMARY KEY("booking_ref","ticket_type_id"),
	CONSTRAINT "booking_items_quantity_positive" CHECK ("booking_items"."quantity" >= 1),
	CONSTRAINT "booking_items_price_not_negative" CHECK ("booking_items"."price_pence" >= 0),
	CONSTRAINT "booking_items_seats_positive" CHECK ("booking_items"."seats_per_ticket" >= 1),
	CONSTRAINT "booking_items_refunded_range" CHECK ("booking_items"."refunded" between 0 and "booking_items"."quantity")
);
--> statement-breakpoint
CREATE TABLE "event_questions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"question" text NOT NULL,
	"answer_type" text NOT NULL,
	"choices" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"required" boolean DEFAULT false NOT NULL,
	"per_attendee" boolean DEFAULT false NOT NULL,
	"shown_at_door" boolean DEFAULT false NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"removed_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "event_questions_answer_type_known" CHECK ("event_questions"."answer_type" in ('text', 'choice', 'yes-no'))
);
--> statement-breakpoint
CREATE TABLE "ticket_types" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"name" text NOT NULL,
	"price_pence" integer NOT NULL,
	"seats_per_ticket" integer DEFAULT 1 NOT NULL,
	"cap" integer,
	"sale_from" timestamp with time zone,
	"sale_until" timestamp with time zone,
	"hidden" boolean DEFAULT false NOT NULL,
	"off_sale_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "ticket_types_price_not_negative" CHECK ("ticket_types"."price_pence" >= 0),
	CONSTRAINT "ticket_types_seats_range" CHECK ("ticket_types"."seats_per_ticket" between 1 and 50),
	CONSTRAINT "ticket_types_cap_not_negative" CHECK ("ticket_types"."cap" is null or "ticket_types"."cap" >= 0)
);
--> statement-breakpoint
ALTER TABLE "bookings" DROP CONSTRAINT "bookings_amount_positive";--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "seats" integer;--> statement-breakpoint
UPDATE "bookings" SET "seats" = "quantity";--> statement-breakpoint
ALTER TABLE "bookings" ALTER COLUMN "seats" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "booking_answers" ADD CONSTRAINT "booking_answers_booking_ref_bookings_booking_ref_fk" FOREIGN KEY ("booking_ref") REFERENCES "public"."bookings"("booking_ref") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_answers" ADD CONSTRAINT "booking_answers_question_id_event_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."event_questions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_items" ADD CONSTRAINT "booking_items_booking_ref_bookings_booking_ref_fk" FOREIGN KEY ("booking_ref") REFERENCES "public"."bookings"("booking_ref") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_items" ADD CONSTRAINT "booking_items_ticket_type_id_ticket_types_id_fk" FOREIGN KEY ("ticket_type_id") REFERENCES "public"."ticket_types"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_questions" ADD CONSTRAINT "event_questions_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_types" ADD CONSTRAINT "ticket_types_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "booking_answers_question_idx" ON "booking_answers" USING btree ("question_id");--> statement-breakpoint
CREATE INDEX "booking_items_type_idx" ON "booking_items" USING btree ("ticket_type_id");--> statement-breakpoint
CREATE INDEX "event_questions_event_idx" ON "event_questions" USING btree ("event_id","position");--> statement-breakpoint
CREATE INDEX "ticket_types_event_idx" ON "ticket_types" USING btree ("event_id","position");--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_amount_not_negative" CHECK ("bookings"."amount_pence" >= 0);--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_seats_at_least_quantity" CHECK ("bookings"."seats" >= "bookings"."quantity");--> statement-breakpoint
-- Every event sold on this site, or that has bookings, becomes one type named Ticket at its price.
INSERT INTO "ticket_types" ("event_id", "name", "price_pence", "created_at", "updated_at")
SELECT "id", 'Ticket', coalesce("ticket_cost_pence", 0), "created_at", "updated_at" FROM "events"
WHERE "ticket_cost_pence" IS NOT NULL OR EXISTS (SELECT 1 FROM "bookings" WHERE "bookings"."event_id" = "events"."id");--> statement-breakpoint
-- Every booking holds tickets of that type, at the price it paid (its amount less the booking fee,
-- shared among its tickets); those refunded are the ones its ticket no longer has.
INSERT INTO "booking_items" ("booking_ref", "ticket_type_id", "quantity", "price_pence", "seats_per_ticket", "refunded")
SELECT b."booking_ref", tt."id", b."quantity", greatest(round((b."amount_pence" - 49)::numeric / b."quantity")::int, 0), 1,
  CASE WHEN t."booking_ref" IS NULL THEN 0 WHEN t."is_valid" THEN greatest(b."quantity" - t."quantity", 0) ELSE b."quantity" END
FROM "bookings" b
JOIN "ticket_types" tt ON tt."event_id" = b."event_id"
LEFT JOIN "tickets" t ON t."booking_ref" = b."booking_ref";
