// `npm run staff -- add <email>`: creates an Owner account, asking for its password (twice, hidden):
// for the day no Owner can sign in (a forgotten password is reset by its e-mailed link, decision 072).
// `npm run staff -- list`: the staff accounts. Uses the same configuration as the site (DATABASE_URL
// or DATA_DIR); with the embedded database, stop the site first.
import readline from "node:readline";
import { Writable } from "node:stream";
import { staffUsers } from "~db/schema";
import { getConfig } from "../app/infra/config.server";
import { openDatabase } from "../app/infra/db/database.server";
import { StaffAccountError, createStaffUser } from "../app/features/staff/staff.server";
import { passwordProblem } from "../app/features/staff/passwords.server";
import { roleNames } from "../app/features/staff/roles";
import { systemClock } from "../app/lib/clock";

const usage = "Usage:\n  npm run staff -- add <email>\n  npm run staff -- list";

/** Reads a line; on a terminal the typing is not shown. Piped input is read as it comes. */
async function ask(question: string, lines: AsyncIterator<string>, hidden: boolean): Promise<string> {
  if (!process.stdin.isTTY) {
    const next = await lines.next();
    if (next.done) throw new StaffAccountError("No password was given on standard input.");
    return next.value;
  }
  const muted = new Writable({ write: (_chunk, _encoding, done) => done() });
  const rl = readline.createInterface({
    input: process.stdin,
    output: hidden ? muted : process.stdout,
    terminal: true,
  });
  process.stdout.write(question);
  const answer = await new Promise<string>((resolve) => rl.question("", resolve));
  rl.close();
  process.stdout.write("\n");
  return answer;
}

async function main() {
  const [command, email] = process.argv.slice(2);
  if (command !== "add" && command !== "list") {
    console.error(usage);
    return 2;
  }
  if (command === "add" && !email) {
    console.error(usage);
    return 2;
  }
  const config = getConfig();
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  try {
    if (command === "list") {
      const rows = await database.db
        .select({ email: staffUsers.email, role: staffUsers.role, createdAt: staffUsers.createdAt })
        .from(staffUsers);
      for (const row of rows) {
        console.log(`${row.email}\t${roleNames[row.role].name}\t(since ${row.createdAt.toISOString().slice(0, 10)})`);
      }
      if (rows.length === 0) console.log("There are no staff accounts yet.");
      return 0;
    }
    const lines = readline.createInterface({ input: process.stdin })[Symbol.asyncIterator]();
    const password = await ask(`Password for ${email}: `, lines, true);
    const problem = passwordProblem(password);
    if (problem) throw new StaffAccountError(`The password ${problem}.`);
    if (process.stdin.isTTY && (await ask("Type it again: ", lines, true)) !== password) {
      throw new StaffAccountError("The two passwords are different.");
    }
    const user = await createStaffUser(database.db, email!, password, systemClock.now());
    console.log(`Created the staff account ${user.email}.`);
    return 0;
  } catch (error) {
    if (error instanceof StaffAccountError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(error.message);
    process.exit(1);
  },
);
