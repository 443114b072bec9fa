import { sqliteFixture } from './fixtures.js';
import { leaseContract, TEST_LEASE_SECONDS } from './lease.contract.js';

leaseContract('embedded (sqlite)', sqliteFixture('lease', { leaseSeconds: TEST_LEASE_SECONDS }));
