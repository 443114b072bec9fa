import { emulatorCommand } from './emulator.js';
import type { Command } from './types.js';

export const commands: Command[] = [emulatorCommand];
