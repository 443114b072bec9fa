import { pushFailuresSuite } from './push-failures.suite.js';

pushFailuresSuite('postgres');
