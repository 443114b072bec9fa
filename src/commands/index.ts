import { notYetAvailable } from './not-yet.js';
import type { Command } from './types.js';

export const commands: Command[] = [
  notYetAvailable('emulator', 'run the WMS emulator alone', 'Usage: wms-sync emulator [--port 8090] [--data FILE] [--seed demo]'),
];
