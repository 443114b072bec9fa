import { execFileSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BIN = '/usr/lib/postgresql/15/bin';

/** A port nobody listens on now (the kernel's pick). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * A PostgreSQL cluster of this test's own (initdb, pg_ctl, run as the `postgres` user, its own
 * data directory and port), so it can be stopped and started: the shared cluster never is.
 */
export class PrivateCluster {
  private constructor(
    readonly dir: string,
    readonly port: number,
  ) {}

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  static async create(): Promise<PrivateCluster> {
    const dir = mkdtempSync(join(tmpdir(), 'wms-sync-pg-'));
    const user = execFileSync('id', ['-u', 'postgres']).toString().trim();
    const group = execFileSync('id', ['-g', 'postgres']).toString().trim();
    chownSync(dir, Number(user), Number(group));
    const cluster = new PrivateCluster(dir, await freePort());
    cluster.#asPostgres(`${BIN}/initdb`, ['-D', `${dir}/data`, '-A', 'trust', '-U', 'postgres', '--no-sync']);
    cluster.start();
    return cluster;
  }

  #asPostgres(cmd: string, args: string[]): void {
    execFileSync('runuser', ['-u', 'postgres', '--', cmd, ...args], { stdio: 'ignore' });
  }

  start(): void {
    this.#asPostgres(`${BIN}/pg_ctl`, [
      '-D',
      `${this.dir}/data`,
      '-l',
      `${this.dir}/log`,
      '-w',
      '-o',
      `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
      'start',
    ]);
  }

  /** `pg_ctl stop -m fast`: sessions are cut, as an operator's restart does. */
  stop(): void {
    this.#asPostgres(`${BIN}/pg_ctl`, ['-D', `${this.dir}/data`, '-m', 'fast', '-w', 'stop']);
  }

  remove(): void {
    try {
      this.stop();
    } catch {
      // already stopped
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
