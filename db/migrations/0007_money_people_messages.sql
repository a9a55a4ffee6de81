-- Refunds (part or all of a booking, a donation; the offline provider's too), cancelled events, Gift Aid
-- claims, staff invitations and last sign-in, and the settings staff change from the site.
CREATE TABLE "gift_aid_claims" (
	"id" uuid PRIMARY KEY NOT NULL,
	"claimed_on" text NOT NULL,
	"donation_count" integer NOT NULL,
	"total_pence" integer NOT NULL,
	"staff_user_id" uuid,
	"staff_email" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "offline_refunds" (
	"id" text PRIMARY KEY NOT NULL,
	"idempotency_key" text NOT NULL,
	"payment_id" text NOT NULL,
	"amount_pence" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "offline_refunds_idempotency_key_unique" UNIQUE("idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "refunds" (
	"id" uuid PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"booking_ref" uuid,
	"donation_id" uuid,
	"quantity" integer,
	"amount_pence" integer NOT NULL,
	"reason" text NOT NULL,
	"status" text NOT NULL,
	"provider_refund_id" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"staff_user_id" uuid,
	"staff_email" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "refunds_key_unique" UNIQUE("key"),
	CONSTRAINT "refunds_one_subject" CHECK (("refunds"."booking_ref" is null) <> ("refunds"."donation_id" is null)),
	CONSTRAINT "refunds_amount_positive" CHECK ("refunds"."amount_pence" > 0),
	CONSTRAINT "refunds_status_known" CHECK ("refunds"."status" in ('pending', 'succeeded', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "site_settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"updated_by" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "staff_invitations" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"invited_by_email" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "donations" DROP CONSTRAINT "donations_status_known";--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "refunded_pence" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "refunded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "gift_aid_claim_id" uuid;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "cancel_reason" text;--> statement-breakpoint
ALTER TABLE "gift_aid_declarations" ADD COLUMN "cancelled_by" text;--> statement-breakpoint
ALTER TABLE "staff_users" ADD COLUMN "last_sign_in_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "gift_aid_claims" ADD CONSTRAINT "gift_aid_claims_staff_user_id_staff_users_id_fk" FOREIGN KEY ("staff_user_id") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offline_refunds" ADD CONSTRAINT "offline_refunds_payment_id_offline_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."offline_payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_booking_ref_bookings_booking_ref_fk" FOREIGN KEY ("booking_ref") REFERENCES "public"."bookings"("booking_ref") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_donation_id_donations_id_fk" FOREIGN KEY ("donation_id") REFERENCES "public"."donations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_staff_user_id_staff_users_id_fk" FOREIGN KEY ("staff_user_id") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "refunds_booking_ref_idx" ON "refunds" USING btree ("booking_ref");--> statement-breakpoint
CREATE INDEX "refunds_donation_id_idx" ON "refunds" USING btree ("donation_id");--> statement-breakpoint
CREATE INDEX "refunds_status_idx" ON "refunds" USING btree ("status");--> statement-breakpoint
CREATE INDEX "staff_invitations_email_idx" ON "staff_invitations" USING btree ("email");--> statement-breakpoint
ALTER TABLE "donations" ADD CONSTRAINT "donations_gift_aid_claim_id_gift_aid_claims_id_fk" FOREIGN KEY ("gift_aid_claim_id") REFERENCES "public"."gift_aid_claims"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bookings_email_idx" ON "bookings" USING btree ("email");--> statement-breakpoint
CREATE INDEX "donations_email_idx" ON "donations" USING btree ("email");--> statement-breakpoint
CREATE INDEX "outbox_recipient_idx" ON "outbox" USING btree ("recipient");--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_refunded_range" CHECK ("bookings"."refunded_pence" between 0 and "bookings"."amount_pence");--> statement-breakpoint
ALTER TABLE "donations" ADD CONSTRAINT "donations_status_known" CHECK ("donations"."status" in ('pending', 'paid', 'cancelled', 'failed', 'refund_pending', 'refunded'));