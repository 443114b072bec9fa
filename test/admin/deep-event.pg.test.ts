import { deepEventSuite } from './deep-event.suite.js';

deepEventSuite('postgres');
