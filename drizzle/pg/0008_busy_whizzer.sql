DROP INDEX "erp_deliveries_due";--> statement-breakpoint
ALTER TABLE "erp_deliveries" ADD COLUMN "head" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Hand-written: the deliveries already pending get their key's head mark (the rule of the claim: no earlier pending one of its key).
UPDATE erp_deliveries SET head = true WHERE status = 'pending' AND NOT EXISTS (
  SELECT 1 FROM erp_deliveries e
  WHERE e.connection = erp_deliveries.connection AND e.order_key = erp_deliveries.order_key AND e.status = 'pending' AND e.confirmation_id < erp_deliveries.confirmation_id);--> statement-breakpoint
CREATE INDEX "erp_deliveries_ready" ON "erp_deliveries" USING btree ("next_attempt_at","id") WHERE status = 'pending' AND head;--> statement-breakpoint
CREATE INDEX "erp_deliveries_pending" ON "erp_deliveries" USING btree ("connection","order_key","confirmation_id") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "erp_deliveries_heads" ON "erp_deliveries" USING btree ("connection","order_key") WHERE status = 'pending' AND head;