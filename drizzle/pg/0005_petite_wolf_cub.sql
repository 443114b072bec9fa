CREATE TABLE "erp_deliveries" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "erp_deliveries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"connection" text NOT NULL,
	"confirmation_id" bigint NOT NULL,
	"type" text NOT NULL,
	"order_key" text NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"lease_owner" text,
	"lease_until" timestamp with time zone,
	"last_status" integer,
	"last_error" text,
	"feed_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"delivered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "erp_delivery_attempts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "erp_delivery_attempts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"delivery_id" bigint NOT NULL,
	"connection" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"outcome" text NOT NULL,
	"status" integer,
	"latency_ms" integer NOT NULL,
	"response" text,
	"error" text,
	"probe" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "erp_delivery_breakers" (
	"connection" text PRIMARY KEY NOT NULL,
	"state" text NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"opened_at" timestamp with time zone,
	"next_probe_at" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "erp_delivery_cursors" (
	"connection" text PRIMARY KEY NOT NULL,
	"last_confirmation_id" bigint NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "erp_deliveries_event" ON "erp_deliveries" USING btree ("connection","confirmation_id");--> statement-breakpoint
CREATE INDEX "erp_deliveries_due" ON "erp_deliveries" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "erp_deliveries_key" ON "erp_deliveries" USING btree ("connection","order_key","status","confirmation_id");--> statement-breakpoint
CREATE INDEX "erp_deliveries_list" ON "erp_deliveries" USING btree ("connection","status","id");--> statement-breakpoint
CREATE INDEX "erp_deliveries_age" ON "erp_deliveries" USING btree ("updated_at");--> statement-breakpoint
CREATE INDEX "erp_delivery_attempts_delivery" ON "erp_delivery_attempts" USING btree ("delivery_id","id");--> statement-breakpoint
CREATE INDEX "erp_delivery_attempts_age" ON "erp_delivery_attempts" USING btree ("at");