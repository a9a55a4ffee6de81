// Says plainly, once per run, whether the PostgreSQL half of the data-layer tests ran.
export default function setup() {
  if (process.env.TEST_DATABASE_URL) {
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
