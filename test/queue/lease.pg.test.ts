import { pgFixture } from './fixtures.js';
import { leaseContract, TEST_LEASE_SECONDS } from './lease.contract.js';

leaseContract('pg-boss (postgres)', pgFixture('lease', { leaseSeconds: TEST_LEASE_SECONDS }));
