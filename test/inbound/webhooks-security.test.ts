import { webhooksSecuritySuite } from './webhooks-security.suite.js';

webhooksSecuritySuite('sqlite');
