import { notifySuite } from './notify.suite.js';

notifySuite('sqlite');
