import { routesNulSuite } from './routes-nul.suite.js';

routesNulSuite('sqlite');
