import { rerunSuite } from './rerun.suite.js';

rerunSuite('postgres');
