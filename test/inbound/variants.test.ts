import { variantsSuite } from './variants.suite.js';

variantsSuite('sqlite');
