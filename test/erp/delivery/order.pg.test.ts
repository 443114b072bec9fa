import { orderSuite } from './order.suite.js';

// Two workers on two stores: the deliveries shared by two processes on one database.
orderSuite('postgres', 2);
