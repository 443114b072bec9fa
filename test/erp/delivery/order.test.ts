import { orderSuite } from './order.suite.js';

orderSuite('sqlite', 1);
