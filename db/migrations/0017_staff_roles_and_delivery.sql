ALTER TABLE "outbox" ADD COLUMN "delivered_by" text;--> statement-breakpoint
ALTER TABLE "staff_invitations" ADD COLUMN "purpose" text DEFAULT 'invitation' NOT NULL;--> statement-breakpoint
ALTER TABLE "staff_invitations" ADD COLUMN "role" text DEFAULT 'owner' NOT NULL;--> statement-breakpoint
ALTER TABLE "staff_users" ADD COLUMN "role" text DEFAULT 'owner' NOT NULL;--> statement-breakpoint
ALTER TABLE "staff_users" ADD COLUMN "previous_sign_in_at" timestamp with time zone;