export default function setup(): void {
  if (!process.env.TEST_DATABASE_URL) {
    process.stdout.write(
      '\n[wms-sync] TEST_DATABASE_URL is not set: the Postgres suites (*.pg.test.ts) were NOT run.\n' +
        '[wms-sync] Run them with TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm test\n\n',
    );
  }
}
