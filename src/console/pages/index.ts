import type { PageRegistrar } from '../page.js';
import { registerAudit } from './audit.js';
import { registerDeliveries } from './deliveries.js';
import { registerDeliveryDetail } from './delivery-detail.js';
import { registerEmulatorPanel } from './emulator.js';
import { registerEmulatorActions } from './emulator-actions.js';
import { registerEventDetail } from './event-detail.js';
import { registerEventEdit } from './event-edit.js';
import { registerEventOverride } from './event-override.js';
import { registerEventsActions } from './events-actions.js';
import { registerEventsList } from './events-list.js';
import { registerFeed } from './feed.js';
import { registerNeedsAction } from './needs-action.js';
import { registerOverview } from './overview.js';
import { registerPushDetail } from './push-detail.js';
import { registerPushesActions } from './pushes-actions.js';
import { registerPushesList } from './pushes-list.js';
import { registerReconciliationRun } from './reconciliation-run.js';
import { registerReconciliations } from './reconciliations.js';

/** Every page of the console, one registrar per file (docs/console.md, "How it is built"). */
export const PAGES: PageRegistrar[] = [
  registerOverview,
  registerNeedsAction,
  registerEventsActions,
  registerEventsList,
  registerEventDetail,
  registerEventOverride,
  registerEventEdit,
  registerPushesActions,
  registerPushesList,
  registerPushDetail,
  registerReconciliations,
  registerReconciliationRun,
  registerFeed,
  registerDeliveries,
  registerDeliveryDetail,
  registerEmulatorPanel,
  registerEmulatorActions,
  registerAudit,
];
