CREATE TABLE "booking_history" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"booking_ref" uuid NOT NULL,
	"status" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bookings" (
	"booking_ref" uuid PRIMARY KEY NOT NULL,
	"event_id" uuid NOT NULL,
	"holder_name" text NOT NULL,
	"email" text NOT NULL,
	"quantity" integer NOT NULL,
	"amount_pence" integer NOT NULL,
	"status" text NOT NULL,
	"hold_expires_at" timestamp with time zone NOT NULL,
	"provider" text NOT NULL,
	"provider_payment_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bookings_provider_payment_id_unique" UNIQUE("provider_payment_id"),
	CONSTRAINT "bookings_quantity_range" CHECK ("bookings"."quantity" between 1 and 29),
	CONSTRAINT "bookings_amount_positive" CHECK ("bookings"."amount_pence" > 0),
	CONSTRAINT "bookings_status_known" CHECK ("bookings"."status" in ('held', 'paid', 'cancelled', 'refund_pending', 'refunded', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "offline_payments" (
	"id" text PRIMARY KEY NOT NULL,
	"client_secret" text NOT NULL,
	"amount_pence" integer NOT NULL,
	"currency" text NOT NULL,
	"description" text NOT NULL,
	"metadata" jsonb NOT NULL,
	"receipt_email" text,
	"status" text NOT NULL,
	"last_error" text,
	"refunded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "offline_payments_client_secret_unique" UNIQUE("client_secret")
);
--> statement-breakpoint
CREATE TABLE "outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"dedupe_key" text NOT NULL,
	"recipient" text NOT NULL,
	"payload" jsonb NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "outbox_dedupe_key_unique" UNIQUE("dedupe_key")
);
--> statement-breakpoint
CREATE TABLE "processed_webhook_events" (
	"event_id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "booking_history" ADD CONSTRAINT "booking_history_booking_ref_bookings_booking_ref_fk" FOREIGN KEY ("booking_ref") REFERENCES "public"."bookings"("booking_ref") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "booking_history_ref_idx" ON "booking_history" USING btree ("booking_ref","at");--> statement-breakpoint
CREATE INDEX "bookings_event_status_idx" ON "bookings" USING btree ("event_id","status");--> statement-breakpoint
CREATE INDEX "outbox_due_idx" ON "outbox" USING btree ("sent_at","next_attempt_at");