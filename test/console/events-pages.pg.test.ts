import { eventsPagesSuite } from './events-pages.suite.js';

eventsPagesSuite('postgres');
