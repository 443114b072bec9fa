#!/usr/bin/env node
// The CLI runs the TypeScript sources through tsx's loader so that `npx wms-sync`, `npm start`
// and the Docker image all execute the same files the tests exercise (no stale build output).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli.ts');
process.exitCode = await main(process.argv.slice(2));
