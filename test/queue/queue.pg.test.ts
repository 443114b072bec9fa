import { pgFixture } from './fixtures.js';
import { queueContract } from './queue.contract.js';

queueContract('pg-boss (postgres)', pgFixture('queue'));
