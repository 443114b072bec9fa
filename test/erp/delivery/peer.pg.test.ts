import { peerSuite } from './peer.suite.js';

peerSuite('postgres');
