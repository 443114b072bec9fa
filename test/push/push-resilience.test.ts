import { pushResilienceSuite } from './push-resilience.suite.js';

pushResilienceSuite('sqlite');
