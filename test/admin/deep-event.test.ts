import { deepEventSuite } from './deep-event.suite.js';

deepEventSuite('sqlite');
