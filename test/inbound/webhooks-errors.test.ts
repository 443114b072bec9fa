import { webhooksErrorsSuite } from './webhooks-errors.suite.js';

webhooksErrorsSuite('sqlite');
