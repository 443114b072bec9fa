import type { PageRegistrar } from '../page.js';
import { registerEmulatorActions } from './emulator-actions.js';
import { registerEmulatorPanel } from './emulator.js';
import { registerFeed } from './feed.js';
import { registerOutboundActions } from './outbound-actions.js';
import { registerOutboundDetail } from './outbound-detail.js';
import { registerOutboundList } from './outbound-list.js';
import { registerOverview } from './overview.js';
import { registerReconciliationRun } from './reconciliation-run.js';
import { registerReconciliations } from './reconciliations.js';

/**
 * Every page of the console, one registrar per file. Phase 2 adds the inbound events pages here
 * (list, detail, edit, retry, bulk retry): see docs/console.md, "Adding a page".
 */
export const PAGES: PageRegistrar[] = [
  registerOverview,
  registerOutboundActions,
  registerOutboundList,
  registerOutboundDetail,
  registerReconciliations,
  registerReconciliationRun,
  registerFeed,
  registerEmulatorPanel,
  registerEmulatorActions,
];
