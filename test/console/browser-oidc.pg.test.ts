import { browserOidcSuite } from './browser-oidc.suite.js';

browserOidcSuite('postgres');
