import { closeAckSuite } from './close-ack.suite.js';

closeAckSuite('sqlite');
