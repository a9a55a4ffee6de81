import { sql, type SQL, type SQLWrapper } from "drizzle-orm";

// Finding people by what staff type (decision 077): "siobhan" finds "Siobhán", "OKAFOR" finds
// "Okafor", "obrien" finds "O'Brien". One folding table does it, read twice: by the database as
// translate(column, from, to), and here by `fold` for what was typed, so both sides fold alike on
// PGlite and PostgreSQL with no extension and whatever the server's locale (lower() of "Á" depends
// on it; the table does not).

const accented =
  "ÀÁÂÃÄÅàáâãäåĀāĂăĄąÇçĆćĈĉĊċČčÐðĎďĐđÈÉÊËèéêëĒēĔĕĖėĘęĚěĜĝĞğĠġĢģĤĥĦħÌÍÎÏìíîïĨĩĪīĬĭĮįİıĴĵĶķĹĺĻļĽľĿŀŁłÑñŃńŅņŇňÒÓÔÕÖØòóôõöøŌōŎŏŐőŔŕŖŗŘřŚśŜŝŞşŠšŢţŤťŦŧÙÚÛÜùúûüŨũŪūŬŭŮůŰűŲųŴŵÝýÿŶŷŸŹźŻżŽžȘșȚț";

/** The plain lower-case letter an accented or capital letter searches as. */
function plainLetter(letter: string): string {
  const special: Record<string, string> = {
    Ð: "d",
    ð: "d",
    Đ: "d",
    đ: "d",
    Ħ: "h",
    ħ: "h",
    ı: "i",
    Ł: "l",
    ł: "l",
    Ŀ: "l",
    ŀ: "l",
    Ø: "o",
    ø: "o",
    Ŧ: "t",
    ŧ: "t",
  };
  const plain = special[letter] ?? letter.normalize("NFD").replace(/\p{M}/gu, "");
  return plain.toLowerCase();
}

function buildTable(): { from: string; to: string } {
  let from = "";
  let to = "";
  for (let code = 65; code <= 90; code++) {
    from += String.fromCharCode(code);
    to += String.fromCharCode(code + 32);
  }
  for (const letter of accented) {
    const plain = plainLetter(letter);
    if (!/^[a-z]$/.test(plain)) throw new Error(`No plain letter for ${letter}`);
    from += letter;
    to += plain;
  }
  // Past the end of `to`, translate() deletes: apostrophes and hyphens ("O'Brien" as "obrien").
  from += "'’‘`-";
  return { from, to };
}

/** The folding table: each character of `from` becomes the one at the same place in `to`, or goes. */
export const searchFolding = buildTable();

const folded = new Map<string, string>(
  Array.from(searchFolding.from, (letter, i) => [letter, searchFolding.to[i] ?? ""]),
);

/** What typed text searches as: the table applied, as the database applies it to the columns. */
export function fold(text: string): string {
  let out = "";
  for (const letter of text) out += folded.get(letter) ?? letter;
  return out;
}

/** The same folding, done by the database on a column or expression. */
export function foldedSql(column: SQLWrapper): SQL {
  return sql`translate(${column}, ${searchFolding.from}, ${searchFolding.to})`;
}

/**
 * What was typed in a search box, as text a search can hold: control characters (a NUL, which
 * PostgreSQL's text cannot hold, a tab, a line break) are spaces, and the ends trimmed. Every
 * staff search reads what was typed through this.
 */
export function searchText(typed: string): string {
  return typed.replace(/\p{Cc}+/gu, " ").trim();
}

/** A LIKE pattern's own characters made literal (PostgreSQL's default escape is the backslash). */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** What was typed, ready to search people: folded words, and the whole as the start of an e-mail. */
export interface PersonQuery {
  /** Each word must appear in the name, in any order ("okafor", "siobhan okafor"). */
  words: string[];
  /** The text folded whole, for the start of an e-mail address ("siobhan.o@"). */
  whole: string;
}

/** Undefined when nothing searchable was typed. */
export function personQuery(typed: string): PersonQuery | undefined {
  const whole = fold(searchText(typed).replace(/\s+/g, " ")).slice(0, 200);
  const words = whole.split(" ").filter(Boolean);
  return words.length > 0 ? { words, whole } : undefined;
}

/** Whether a person (name and perhaps e-mail) matches, as the SQL of `personMatchSql` decides. */
export function personMatches(query: PersonQuery, person: { name: string; email?: string | null }): boolean {
  const name = fold(person.name);
  if (query.words.every((word) => name.includes(word))) return true;
  return person.email ? fold(person.email).startsWith(query.whole) : false;
}

/** How well a person matches, best first: 0 a name starting with the first word, 1 a word of it, 2 the rest. */
export function personRank(query: PersonQuery, name: string): number {
  const folded = ` ${fold(name)}`;
  const first = query.words[0]!;
  if (folded.startsWith(` ${first}`)) return 0;
  return folded.includes(` ${first}`) ? 1 : 2;
}

/** SQL: every word in the name, or the whole at the start of the e-mail (`personMatches`). */
export function personMatchSql(query: PersonQuery, name: SQLWrapper, email?: SQLWrapper): SQL {
  const inName = sql.join(
    query.words.map((word) => sql`${foldedSql(name)} like ${`%${likeLiteral(word)}%`}`),
    sql` and `,
  );
  return email ? sql`((${inName}) or ${foldedSql(email)} like ${`${likeLiteral(query.whole)}%`})` : sql`(${inName})`;
}

/** SQL: `personRank`, for ORDER BY. */
export function personRankSql(query: PersonQuery, name: SQLWrapper): SQL {
  const first = likeLiteral(query.words[0]!);
  return sql`case when ${foldedSql(name)} like ${`${first}%`} then 0 when ${foldedSql(name)} like ${`% ${first}%`} then 1 else 2 end`;
}
