import { peerSuite } from './peer.suite.js';

peerSuite('sqlite');
