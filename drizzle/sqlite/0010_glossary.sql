-- One meaning per word: WMS pushes, feed entries. Renames keep every row; SQLite cannot rename an
-- index, so each is dropped and built again under its new name.
ALTER TABLE `outbound_records` RENAME TO `wms_pushes`;--> statement-breakpoint
DROP INDEX `outbound_records_key`;--> statement-breakpoint
CREATE UNIQUE INDEX `wms_pushes_key` ON `wms_pushes` (`connection`,`entity`,`external_code`);--> statement-breakpoint
DROP INDEX `outbound_records_state`;--> statement-breakpoint
CREATE INDEX `wms_pushes_state` ON `wms_pushes` (`connection`,`state`);--> statement-breakpoint
DROP INDEX `outbound_records_state_age`;--> statement-breakpoint
CREATE INDEX `wms_pushes_state_age` ON `wms_pushes` (`state`,`updated_at`);--> statement-breakpoint
DROP INDEX `outbound_records_list`;--> statement-breakpoint
CREATE INDEX `wms_pushes_list` ON `wms_pushes` (`connection`,`entity`,`state`,`id`);--> statement-breakpoint
ALTER TABLE `outbound_waits` RENAME TO `wms_push_waits`;--> statement-breakpoint
DROP INDEX `outbound_waits_key`;--> statement-breakpoint
CREATE UNIQUE INDEX `wms_push_waits_key` ON `wms_push_waits` (`record_id`,`entity`,`external_code`);--> statement-breakpoint
DROP INDEX `outbound_waits_target`;--> statement-breakpoint
CREATE INDEX `wms_push_waits_target` ON `wms_push_waits` (`connection`,`entity`,`external_code`);--> statement-breakpoint
ALTER TABLE `confirmations` RENAME TO `feed_entries`;--> statement-breakpoint
DROP INDEX `confirmations_key`;--> statement-breakpoint
CREATE UNIQUE INDEX `feed_entries_key` ON `feed_entries` (`connection`,`dedupe_key`);--> statement-breakpoint
DROP INDEX `confirmations_feed`;--> statement-breakpoint
CREATE INDEX `feed_entries_cursor` ON `feed_entries` (`connection`,`id`);--> statement-breakpoint
DROP INDEX `confirmations_age`;--> statement-breakpoint
CREATE INDEX `feed_entries_age` ON `feed_entries` (`created_at`);--> statement-breakpoint
DROP INDEX `confirmations_source`;--> statement-breakpoint
CREATE INDEX `feed_entries_source` ON `feed_entries` (`source_event_id`);--> statement-breakpoint
ALTER TABLE `erp_deliveries` RENAME COLUMN `confirmation_id` TO `feed_entry_id`;--> statement-breakpoint
ALTER TABLE `erp_delivery_cursors` RENAME COLUMN `last_confirmation_id` TO `last_feed_entry_id`;
