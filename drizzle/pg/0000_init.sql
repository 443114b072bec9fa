CREATE TABLE "confirmations" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "confirmations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"connection" text NOT NULL,
	"type" text NOT NULL,
	"dedupe_key" text NOT NULL,
	"source_event_id" bigint,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inbound_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "inbound_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"connection" text NOT NULL,
	"kind" text NOT NULL,
	"dedupe_key" text NOT NULL,
	"status" text NOT NULL,
	"payload" text NOT NULL,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"duplicates" integer DEFAULT 0 NOT NULL,
	"request_id" text,
	"received_at" timestamp with time zone NOT NULL,
	"last_duplicate_at" timestamp with time zone,
	"processed_at" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "outbound_records" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "outbound_records_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"connection" text NOT NULL,
	"entity" text NOT NULL,
	"external_code" text NOT NULL,
	"payload" jsonb NOT NULL,
	"payload_hash" text NOT NULL,
	"synced_hash" text,
	"state" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" jsonb,
	"last_pushed_at" timestamp with time zone,
	"locked_by" text,
	"locked_until" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "outbound_waits" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "outbound_waits_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"connection" text NOT NULL,
	"record_id" bigint NOT NULL,
	"entity" text NOT NULL,
	"external_code" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stock_ledger" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "stock_ledger_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"connection" text NOT NULL,
	"product_external_code" text NOT NULL,
	"lot_code" text DEFAULT '' NOT NULL,
	"warehouse" text,
	"quantity" double precision NOT NULL,
	"movement_time" timestamp with time zone NOT NULL,
	"source" text NOT NULL,
	"dedupe_key" text NOT NULL,
	"source_event_id" bigint,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reconciliation_items" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "reconciliation_items_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"run_id" bigint NOT NULL,
	"connection" text NOT NULL,
	"product_external_code" text NOT NULL,
	"lot_code" text DEFAULT '' NOT NULL,
	"status" text NOT NULL,
	"wms_existence" double precision,
	"wms_available" double precision,
	"expected_existence" double precision,
	"baseline_existence" double precision,
	"movements" double precision,
	"delta" double precision,
	"observed_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reconciliation_runs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "reconciliation_runs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"connection" text NOT NULL,
	"trigger" text NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"products_total" integer,
	"products_checked" integer DEFAULT 0 NOT NULL,
	"products_failed" integer DEFAULT 0 NOT NULL,
	"rows_checked" integer DEFAULT 0 NOT NULL,
	"rows_rechecked" integer DEFAULT 0 NOT NULL,
	"drift_count" integer DEFAULT 0 NOT NULL,
	"not_found_count" integer DEFAULT 0 NOT NULL,
	"unsettled_count" integer DEFAULT 0 NOT NULL,
	"requests" integer DEFAULT 0 NOT NULL,
	"requested_at" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reconciliation_snapshots" (
	"connection" text NOT NULL,
	"product_external_code" text NOT NULL,
	"lot_code" text DEFAULT '' NOT NULL,
	"existence" double precision NOT NULL,
	"available" double precision,
	"as_of" timestamp with time zone NOT NULL,
	"taken_at" timestamp with time zone NOT NULL,
	"run_id" bigint NOT NULL,
	CONSTRAINT "reconciliation_snapshots_connection_product_external_code_lot_code_pk" PRIMARY KEY("connection","product_external_code","lot_code")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "confirmations_key" ON "confirmations" USING btree ("connection","dedupe_key");--> statement-breakpoint
CREATE INDEX "confirmations_feed" ON "confirmations" USING btree ("connection","id");--> statement-breakpoint
CREATE UNIQUE INDEX "inbound_events_key" ON "inbound_events" USING btree ("connection","dedupe_key");--> statement-breakpoint
CREATE INDEX "inbound_events_status" ON "inbound_events" USING btree ("status","id");--> statement-breakpoint
CREATE UNIQUE INDEX "outbound_records_key" ON "outbound_records" USING btree ("connection","entity","external_code");--> statement-breakpoint
CREATE INDEX "outbound_records_state" ON "outbound_records" USING btree ("connection","state");--> statement-breakpoint
CREATE UNIQUE INDEX "outbound_waits_key" ON "outbound_waits" USING btree ("record_id","entity","external_code");--> statement-breakpoint
CREATE INDEX "outbound_waits_target" ON "outbound_waits" USING btree ("connection","entity","external_code");--> statement-breakpoint
CREATE UNIQUE INDEX "stock_ledger_key" ON "stock_ledger" USING btree ("connection","dedupe_key");--> statement-breakpoint
CREATE INDEX "stock_ledger_product" ON "stock_ledger" USING btree ("connection","product_external_code","lot_code","movement_time");--> statement-breakpoint
CREATE UNIQUE INDEX "reconciliation_items_key" ON "reconciliation_items" USING btree ("run_id","product_external_code","lot_code");--> statement-breakpoint
CREATE INDEX "reconciliation_runs_connection" ON "reconciliation_runs" USING btree ("connection","status","id");