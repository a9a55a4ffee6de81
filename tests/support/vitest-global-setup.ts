import { emptyPgliteDump, migratedPgliteDump, postgresTemplate } from "./databases";

// Once per run: says plainly whether the PostgreSQL half of the data-layer tests ran, and prepares
// the databases tests copy (tests/support/databases.ts): the migrated ones, and PGlite's empty one,
// so the workers do not all make them at once.
export default async function setup() {
  await migratedPgliteDump();
  await emptyPgliteDump();
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
