CREATE TABLE `inbound_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` integer NOT NULL,
	`connection` text NOT NULL,
	`outcome` text NOT NULL,
	`error` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `inbound_attempts_event` ON `inbound_attempts` (`event_id`,`id`);--> statement-breakpoint
CREATE TABLE `inbound_event_edits` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` integer NOT NULL,
	`connection` text NOT NULL,
	`actor` text NOT NULL,
	`payload` text NOT NULL,
	`changes` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `inbound_event_edits_event` ON `inbound_event_edits` (`event_id`,`id`);--> statement-breakpoint
ALTER TABLE `inbound_events` ADD `business_code` text;--> statement-breakpoint
ALTER TABLE `inbound_events` ADD `quarantine_reason` text;--> statement-breakpoint
ALTER TABLE `inbound_events` ADD `correction` text;--> statement-breakpoint
CREATE INDEX `inbound_events_connection` ON `inbound_events` (`connection`,`id`);--> statement-breakpoint
CREATE INDEX `inbound_events_kind` ON `inbound_events` (`kind`,`id`);--> statement-breakpoint
CREATE INDEX `inbound_events_code` ON `inbound_events` (`business_code`,`id`);--> statement-breakpoint
CREATE INDEX `inbound_events_received` ON `inbound_events` (`received_at`);--> statement-breakpoint
CREATE INDEX `inbound_events_filter` ON `inbound_events` (`connection`,`kind`,`status`,`received_at`);--> statement-breakpoint
CREATE INDEX `confirmations_source` ON `confirmations` (`source_event_id`);