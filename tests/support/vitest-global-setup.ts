import { migratedPgliteDump, postgresTemplate } from "./databases";

// Once per run: says plainly whether the PostgreSQL half of the data-layer tests ran, and prepares
// the migrated databases every test copies (tests/support/databases.ts), so the workers do not
// all make them at once.
export default async function setup() {
  await migratedPgliteDump();
  if (process.env.TEST_DATABASE_URL) {
    await postgresTemplate(process.env.TEST_DATABASE_URL);
    console.log(`Data-layer tests run on PGlite and on PostgreSQL (${redact(process.env.TEST_DATABASE_URL)}).`);
  } else {
    console.warn(
      "\n*** TEST_DATABASE_URL is not set: the PostgreSQL half of the data-layer tests was NOT run (PGlite only). ***\n" +
        "*** Set it, e.g. TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test, to run both.              ***\n",
    );
  }
}

function redact(url: string) {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, "//$1:***@");
}
