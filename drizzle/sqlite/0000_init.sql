CREATE TABLE `confirmations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`connection` text NOT NULL,
	`type` text NOT NULL,
	`dedupe_key` text NOT NULL,
	`source_event_id` integer,
	`data` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `confirmations_key` ON `confirmations` (`connection`,`dedupe_key`);--> statement-breakpoint
CREATE INDEX `confirmations_feed` ON `confirmations` (`connection`,`id`);--> statement-breakpoint
CREATE TABLE `inbound_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`connection` text NOT NULL,
	`kind` text NOT NULL,
	`dedupe_key` text NOT NULL,
	`status` text NOT NULL,
	`payload` text NOT NULL,
	`error` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`duplicates` integer DEFAULT 0 NOT NULL,
	`request_id` text,
	`received_at` integer NOT NULL,
	`last_duplicate_at` integer,
	`processed_at` integer,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `inbound_events_key` ON `inbound_events` (`connection`,`dedupe_key`);--> statement-breakpoint
CREATE INDEX `inbound_events_status` ON `inbound_events` (`status`,`id`);--> statement-breakpoint
CREATE TABLE `outbound_records` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`connection` text NOT NULL,
	`entity` text NOT NULL,
	`external_code` text NOT NULL,
	`payload` text NOT NULL,
	`payload_hash` text NOT NULL,
	`synced_hash` text,
	`state` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	`last_pushed_at` integer,
	`locked_by` text,
	`locked_until` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `outbound_records_key` ON `outbound_records` (`connection`,`entity`,`external_code`);--> statement-breakpoint
CREATE INDEX `outbound_records_state` ON `outbound_records` (`connection`,`state`);--> statement-breakpoint
CREATE TABLE `outbound_waits` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`connection` text NOT NULL,
	`record_id` integer NOT NULL,
	`entity` text NOT NULL,
	`external_code` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `outbound_waits_key` ON `outbound_waits` (`record_id`,`entity`,`external_code`);--> statement-breakpoint
CREATE INDEX `outbound_waits_target` ON `outbound_waits` (`connection`,`entity`,`external_code`);--> statement-breakpoint
CREATE TABLE `stock_ledger` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`connection` text NOT NULL,
	`product_external_code` text NOT NULL,
	`lot_code` text DEFAULT '' NOT NULL,
	`warehouse` text,
	`quantity` real NOT NULL,
	`movement_time` integer NOT NULL,
	`source` text NOT NULL,
	`dedupe_key` text NOT NULL,
	`source_event_id` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `stock_ledger_key` ON `stock_ledger` (`connection`,`dedupe_key`);--> statement-breakpoint
CREATE INDEX `stock_ledger_product` ON `stock_ledger` (`connection`,`product_external_code`,`lot_code`,`movement_time`);--> statement-breakpoint
CREATE TABLE `reconciliation_items` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`run_id` integer NOT NULL,
	`connection` text NOT NULL,
	`product_external_code` text NOT NULL,
	`lot_code` text DEFAULT '' NOT NULL,
	`status` text NOT NULL,
	`wms_existence` real,
	`wms_available` real,
	`expected_existence` real,
	`baseline_existence` real,
	`movements` real,
	`delta` real,
	`observed_at` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `reconciliation_items_key` ON `reconciliation_items` (`run_id`,`product_external_code`,`lot_code`);--> statement-breakpoint
CREATE TABLE `reconciliation_runs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`connection` text NOT NULL,
	`trigger` text NOT NULL,
	`status` text NOT NULL,
	`reason` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`products_total` integer,
	`products_checked` integer DEFAULT 0 NOT NULL,
	`products_failed` integer DEFAULT 0 NOT NULL,
	`rows_checked` integer DEFAULT 0 NOT NULL,
	`rows_rechecked` integer DEFAULT 0 NOT NULL,
	`drift_count` integer DEFAULT 0 NOT NULL,
	`not_found_count` integer DEFAULT 0 NOT NULL,
	`unsettled_count` integer DEFAULT 0 NOT NULL,
	`requests` integer DEFAULT 0 NOT NULL,
	`requested_at` integer NOT NULL,
	`started_at` integer,
	`finished_at` integer,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `reconciliation_runs_connection` ON `reconciliation_runs` (`connection`,`status`,`id`);--> statement-breakpoint
CREATE TABLE `reconciliation_snapshots` (
	`connection` text NOT NULL,
	`product_external_code` text NOT NULL,
	`lot_code` text DEFAULT '' NOT NULL,
	`existence` real NOT NULL,
	`available` real,
	`as_of` integer NOT NULL,
	`taken_at` integer NOT NULL,
	`run_id` integer NOT NULL,
	PRIMARY KEY(`connection`, `product_external_code`, `lot_code`)
);
--> statement-breakpoint
CREATE TABLE `jobs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`data` text NOT NULL,
	`state` text NOT NULL,
	`policy` text NOT NULL,
	`retry_limit` integer NOT NULL,
	`retry_count` integer DEFAULT 0 NOT NULL,
	`retry_delay` integer NOT NULL,
	`retry_backoff` integer NOT NULL,
	`expire_in_seconds` integer NOT NULL,
	`singleton_key` text DEFAULT '' NOT NULL,
	`start_after` integer NOT NULL,
	`started_at` integer,
	`lease_until` integer,
	`output` text,
	`created_at` integer NOT NULL,
	`completed_at` integer
);
--> statement-breakpoint
CREATE INDEX `jobs_fetch` ON `jobs` (`name`,`id`) WHERE state IN ('created', 'retry');--> statement-breakpoint
CREATE INDEX `jobs_lease` ON `jobs` (`lease_until`) WHERE state = 'active';--> statement-breakpoint
CREATE INDEX `jobs_finished` ON `jobs` (`state`,`completed_at`) WHERE state IN ('completed', 'failed', 'cancelled');--> statement-breakpoint
CREATE UNIQUE INDEX `jobs_stately` ON `jobs` (`name`,`state`,`singleton_key`) WHERE policy = 'stately' AND state IN ('created', 'retry', 'active');--> statement-breakpoint
CREATE TABLE `job_queues` (
	`name` text PRIMARY KEY NOT NULL,
	`policy` text NOT NULL,
	`retry_limit` integer,
	`retry_delay` integer,
	`retry_backoff` integer,
	`expire_in_seconds` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `job_schedules` (
	`name` text PRIMARY KEY NOT NULL,
	`cron` text NOT NULL,
	`data` text NOT NULL,
	`tz` text,
	`last_fired_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
