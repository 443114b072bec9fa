-- One meaning per word: WMS pushes, feed entries. Renames keep every row, and the indexes,
-- identity sequences and primary keys follow their tables' names.
ALTER TABLE "outbound_records" RENAME TO "wms_pushes";--> statement-breakpoint
ALTER SEQUENCE "outbound_records_id_seq" RENAME TO "wms_pushes_id_seq";--> statement-breakpoint
ALTER INDEX "outbound_records_pkey" RENAME TO "wms_pushes_pkey";--> statement-breakpoint
ALTER INDEX "outbound_records_key" RENAME TO "wms_pushes_key";--> statement-breakpoint
ALTER INDEX "outbound_records_state" RENAME TO "wms_pushes_state";--> statement-breakpoint
ALTER INDEX "outbound_records_state_age" RENAME TO "wms_pushes_state_age";--> statement-breakpoint
ALTER INDEX "outbound_records_list" RENAME TO "wms_pushes_list";--> statement-breakpoint
ALTER TABLE "outbound_waits" RENAME TO "wms_push_waits";--> statement-breakpoint
ALTER SEQUENCE "outbound_waits_id_seq" RENAME TO "wms_push_waits_id_seq";--> statement-breakpoint
ALTER INDEX "outbound_waits_pkey" RENAME TO "wms_push_waits_pkey";--> statement-breakpoint
ALTER INDEX "outbound_waits_key" RENAME TO "wms_push_waits_key";--> statement-breakpoint
ALTER INDEX "outbound_waits_target" RENAME TO "wms_push_waits_target";--> statement-breakpoint
ALTER TABLE "confirmations" RENAME TO "feed_entries";--> statement-breakpoint
ALTER SEQUENCE "confirmations_id_seq" RENAME TO "feed_entries_id_seq";--> statement-breakpoint
ALTER INDEX "confirmations_pkey" RENAME TO "feed_entries_pkey";--> statement-breakpoint
ALTER INDEX "confirmations_key" RENAME TO "feed_entries_key";--> statement-breakpoint
ALTER INDEX "confirmations_feed" RENAME TO "feed_entries_cursor";--> statement-breakpoint
ALTER INDEX "confirmations_age" RENAME TO "feed_entries_age";--> statement-breakpoint
ALTER INDEX "confirmations_source" RENAME TO "feed_entries_source";--> statement-breakpoint
ALTER TABLE "erp_deliveries" RENAME COLUMN "confirmation_id" TO "feed_entry_id";--> statement-breakpoint
ALTER TABLE "erp_delivery_cursors" RENAME COLUMN "last_confirmation_id" TO "last_feed_entry_id";
