// Run by Vitest before each test file (vitest.config.ts), in the file's own module graph.
import { hashCheaplyInTests } from "~/features/staff/passwords.server";

// Staff passwords hashed at a lower scrypt cost than the site's: see hashCheaplyInTests.
hashCheaplyInTests(true);
