CREATE TABLE "offline_mandates" (
	"id" text PRIMARY KEY NOT NULL,
	"customer_id" text NOT NULL,
	"reference" text NOT NULL,
	"account_name" text NOT NULL,
	"sort_code" text NOT NULL,
	"last4" text NOT NULL,
	"status" text NOT NULL,
	"outcome" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "offline_mandates_reference_unique" UNIQUE("reference")
);
--> statement-breakpoint
ALTER TABLE "offline_payments" ADD COLUMN "payment_method" text DEFAULT 'card' NOT NULL;--> statement-breakpoint
ALTER TABLE "offline_payments" ADD COLUMN "mandate_id" text;--> statement-breakpoint
ALTER TABLE "offline_payments" ADD COLUMN "settles_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "offline_subscriptions" ADD COLUMN "payment_method" text DEFAULT 'card' NOT NULL;--> statement-breakpoint
ALTER TABLE "offline_subscriptions" ADD COLUMN "mandate_id" text;--> statement-breakpoint
ALTER TABLE "offline_subscriptions" ADD COLUMN "pending_change" jsonb;--> statement-breakpoint
ALTER TABLE "regular_gifts" ADD COLUMN "payment_method" text DEFAULT 'card' NOT NULL;--> statement-breakpoint
ALTER TABLE "regular_gifts" ADD COLUMN "provider_mandate_id" text;--> statement-breakpoint
ALTER TABLE "regular_gifts" ADD COLUMN "bank_account_name" text;--> statement-breakpoint
ALTER TABLE "regular_gifts" ADD COLUMN "bank_sort_code" text;--> statement-breakpoint
ALTER TABLE "regular_gifts" ADD COLUMN "bank_last4" text;--> statement-breakpoint
ALTER TABLE "regular_gifts" ADD COLUMN "mandate_reference" text;--> statement-breakpoint
ALTER TABLE "regular_gifts" ADD COLUMN "mandate_status" text;--> statement-breakpoint
ALTER TABLE "regular_gifts" ADD COLUMN "mandate_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "regular_gifts_customer_idx" ON "regular_gifts" USING btree ("provider_customer_id");--> statement-breakpoint
ALTER TABLE "regular_gifts" ADD CONSTRAINT "regular_gifts_payment_method_known" CHECK ("regular_gifts"."payment_method" in ('card', 'bacs_debit'));--> statement-breakpoint
ALTER TABLE "regular_gifts" ADD CONSTRAINT "regular_gifts_mandate_status_known" CHECK ("regular_gifts"."mandate_status" is null or "regular_gifts"."mandate_status" in ('pending', 'active', 'inactive'));--> statement-breakpoint
ALTER TABLE "regular_gifts" ADD CONSTRAINT "regular_gifts_bank_last4_only" CHECK ("regular_gifts"."bank_last4" is null or "regular_gifts"."bank_last4" ~ '^[0-9]{4}$');