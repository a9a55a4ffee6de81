import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { engines, freshDatabase } from "../../tests/support/databases";
import { fold, foldedSql, personMatches, personQuery, personRank, searchFolding } from "./search-fold";

describe("folding what staff type", () => {
  it("ignores accents and capitals, and drops apostrophes and hyphens", () => {
    expect(fold("Siobhán")).toBe("siobhan");
    expect(fold("OKAFOR")).toBe("okafor");
    expect(fold("Zoë Ní Bhriain-Łukasiewicz")).toBe("zoe ni bhriainlukasiewicz");
    expect(fold("O’Brien")).toBe("obrien");
    // A letter outside the table stays as it is, capital or not (Þ); its neighbours still fold.
    expect(fold("Bjørn Þór")).toBe("bjorn Þor");
    expect(fold("Ştefan Çelik")).toBe("stefan celik");
  });

  it("has one plain letter for every letter of the table, and deletes only what follows the end of `to`", () => {
    const from = Array.from(searchFolding.from);
    const to = Array.from(searchFolding.to);
    expect(new Set(from).size).toBe(from.length);
    expect(to.every((letter) => /^[a-z]$/.test(letter))).toBe(true);
    expect(from.slice(to.length)).toEqual(["'", "’", "‘", "`", "-"]);
  });

  it("matches every word somewhere in the name, or the whole at the start of the e-mail", () => {
    const person = { name: "Siobhán Okafor", email: "siobhan.o@example.org" };
    expect(personMatches(personQuery("siobhan")!, person)).toBe(true);
    expect(personMatches(personQuery("Okafor")!, person)).toBe(true);
    expect(personMatches(personQuery("okafor  SIOBHAN")!, person)).toBe(true);
    expect(personMatches(personQuery("kafo")!, person)).toBe(true);
    expect(personMatches(personQuery("Siobhan.O@ex")!, person)).toBe(true);
    expect(personMatches(personQuery("example.org")!, person)).toBe(false);
    expect(personMatches(personQuery("Grace Okafor")!, person)).toBe(false);
    expect(personQuery("   ")).toBeUndefined();
  });

  it("ranks a name that starts with the first word first, then a word that does, then the rest", () => {
    const query = personQuery("oka")!;
    expect(personRank(query, "Okafor Chidi")).toBe(0);
    expect(personRank(query, "Siobhán Okafor")).toBe(1);
    expect(personRank(query, "Grace Nwokafor")).toBe(2);
  });
});

describe.each(engines)("the database folds as the page does, on %s", (engine) => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await freshDatabase(engine);
  });
  afterAll(() => database.close());

  async function folded(text: string): Promise<string> {
    const result = (await database.db.execute(sql`select ${foldedSql(sql`${text}::text`)} as folded`)) as unknown as {
      rows: { folded: string }[];
    };
    return result.rows[0]!.folded;
  }

  it("agrees with `fold` on every letter of the table and on names with letters outside it", async () => {
    const samples = [
      searchFolding.from,
      "Siobhán Ó Súilleabháin",
      "Zoë O'Brien-Łukasiewicz",
      "Ιωάννα Пётр 李 Þór ß",
      "AMANI@Example.ORG",
      "100% _under_ \\ back",
    ];
    for (const text of samples) expect(await folded(text), text).toBe(fold(text));
  });
});
