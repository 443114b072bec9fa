import { webhooksHappySuite } from './webhooks-happy.suite.js';

webhooksHappySuite('postgres');
