import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { FiguresTable } from "~/components/charts/chart";
import type { StaffRole } from "~/features/staff/roles";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { formatPounds } from "~/lib/money";
import { bookings, donations, tickets } from "~db/schema";
import { generateBookings, refusal, type Generated } from "../../scripts/generate-bookings";
import { testClock, type TestClock } from "../../tests/support/clock";
import { engines, freshDatabase, insertEvent, type Engine } from "../../tests/support/databases";
import { callRoute, signedInStaff, testServices, type TestServices } from "../../tests/support/services";
import { incomeTable } from "~/features/donations/income";
import { checkInsTable, compared, salesTable } from "~/features/booking/sales-tables";
import { loader as homeLoader } from "./admin._index";
import { loader as eventLoader } from "./admin.events.id";
import { loader as incomeCsvLoader } from "./admin.income-csv";
import { loader as salesCsvLoader } from "./admin.events.id.sales-csv";
import { loader as checkInsCsvLoader } from "./admin.events.id.check-ins-csv";

// The charts drawn on the server (decision 094): with a few hundred generated sales, every chart's
// table is the database's own sums, written here in SQL apart from the site's code, and each CSV is
// its table; and the rules: refunds taken off, test events left out, empty months as zeros, months
// by London time, the income only for a member who may see money.

type Row = Record<string, unknown>;

/** RFC 4180 read back: quoted cells may hold commas and doubled quotes; lines end CRLF. */
function parseCsv(text: string): string[][] {
  const lines: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(cell);
      cell = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      lines.push(row);
      row = [];
      cell = "";
      i++;
    } else cell += c;
  }
  if (cell || row.length) lines.push([...row, cell]);
  return lines;
}

/** A test database, the site's services on it at a fixed moment, and a member of staff's requests. */
function chartSite(
  engine: Engine,
  hook: typeof beforeEach | typeof beforeAll,
  close: typeof afterEach | typeof afterAll,
) {
  const site = {} as { database: DatabaseHandle; clock: TestClock; services: TestServices };
  hook(async () => {
    site.database = await freshDatabase(engine);
    site.clock = testClock("2026-11-25T10:00:00Z");
    site.services = await testServices(site.database, site.clock);
  });
  close(() => site.services.close());
  return site;
}

describe.each(engines)("the charts with generated sales on %s", (engine) => {
  const site = chartSite(engine, beforeAll, afterAll);
  let made: Generated;
  beforeAll(async () => {
    made = await generateBookings(site.database.db, site.clock.now(), { events: 3, bookings: 300, seed: 7 });
  });
  async function staffGet(path: string, role: StaffRole = "owner") {
    const { cookie } = await signedInStaff(site.database.db, site.clock.now(), {
      role,
      email: `${role}-${Math.random()}@example.org`,
    });
    return new Request(`http://localhost${path}`, { headers: { cookie } });
  }

  async function rows(query: ReturnType<typeof sql>): Promise<Row[]> {
    const result = (await site.database.db.execute(query)) as unknown as { rows: Row[] };
    return result.rows;
  }

  /** A CSV route's answer, parsed: it must be the table's header, rows and totals, cell for cell. */
  async function csvOf(response: Response): Promise<string[][]> {
    expect(response.headers.get("content-type")).toContain("text/csv");
    return parseCsv((await response.text()).replace(/^\uFEFF/, ""));
  }
  const asCsv = (table: FiguresTable) =>
    [table.header, ...table.rows, ...(table.foot ? [table.foot] : [])].map((row) => row.map(String));

  it("writes the bookings asked for, refunds, check-ins and gifts", async () => {
    expect(made.bookings).toBe(300);
    const [count] = await rows(sql`select count(*)::int as n from ${bookings} where paid_at is not null`);
    expect(count!.n).toBe(300);
    expect(made.refunded + made.partlyRefunded).toBeGreaterThan(0);
    expect(made.checkIns).toBeGreaterThan(0);
    expect(made.claimed).toBeGreaterThan(0);
    expect(made.monthlyGifts).toBeGreaterThan(0);
  });

  it("draws the income by month as the database sums it, and its CSV is its table", async () => {
    const home = await callRoute(homeLoader, await staffGet("/admin"), await site.services.request());
    const income = home.income!;
    const months = income.income.months;
    expect(months).toHaveLength(12);
    expect(months.at(-1)!.month).toBe("2026-11");
    expect(months[0]!.month).toBe("2025-12");
    const from = "2025-12-01 00:00:00+00";
    const now = site.clock.now().toISOString();
    const byMonth = async (query: ReturnType<typeof sql>) =>
      new Map((await rows(query)).map((row) => [String(row.month), Number(row.pence)]));
    const londonMonth = (column: string) => sql.raw(`to_char(${column} at time zone 'Europe/London', 'YYYY-MM')`);
    const ticketSums = await byMonth(sql`
        select ${londonMonth("b.paid_at")} as month, sum(b.amount_pence - b.refunded_pence) as pence
        from bookings b join events e on e.id = b.event_id
        where b.status = 'paid' and not e.is_test and b.paid_at >= ${from} and b.paid_at < ${now}
        group by 1`);
    const giftSums = (monthly: boolean) =>
      byMonth(sql`
        select ${londonMonth("paid_at")} as month, sum(amount_pence) as pence from donations
        where status = 'paid' and refunded_at is null and paid_at >= ${from} and paid_at < ${now}
          and (regular_gift_id is not null) = ${monthly}
        group by 1`);
    const [oneOff, monthly] = await Promise.all([giftSums(false), giftSums(true)]);
    const claimed = await byMonth(sql`
        select ${londonMonth("paid_at")} as month, sum(amount_pence * 25 / 100) as pence from donations
        where gift_aid_claim_id is not null and paid_at >= ${from} and paid_at < ${now} group by 1`);
    // Ready to claim, for the generated gifts: paid, kept, unclaimed, and declared with the gift
    // itself or with an earlier month of the same monthly gift for the months after.
    const waiting = await byMonth(sql`
        select ${londonMonth("d.paid_at")} as month, sum(d.amount_pence * 25 / 100) as pence from donations d
        where d.status = 'paid' and d.refunded_at is null and d.gift_aid_claim_id is null
          and d.paid_at >= ${from} and d.paid_at < ${now}
          and exists (select 1 from gift_aid_declarations g join donations made on made.id = g.donation_id
            where g.cancelled_at is null and (g.donation_id = d.id
              or (g.scope = 'this-and-future' and made.regular_gift_id = d.regular_gift_id and d.paid_at > g.declared_at)))
        group by 1`);
    for (const month of months) {
      expect(month.ticketPence, month.month).toBe(ticketSums.get(month.month) ?? 0);
      expect(month.oneOffPence, month.month).toBe(oneOff.get(month.month) ?? 0);
      expect(month.monthlyPence, month.month).toBe(monthly.get(month.month) ?? 0);
      expect(month.giftAidClaimedPence, month.month).toBe(claimed.get(month.month) ?? 0);
      expect(month.giftAidWaitingPence, month.month).toBe(waiting.get(month.month) ?? 0);
    }
    // The table shows those figures in pounds; the CSV is the table.
    const table = incomeTable(income.income);
    expect(table.header).toEqual([
      "Month",
      "Tickets",
      "One-off gifts",
      "Monthly gifts",
      "Total",
      "Gift Aid claimed",
      "Gift Aid waiting to be claimed",
    ]);
    const november = table.rows.at(-1)!;
    expect(november[0]).toBe("November 2026");
    expect(november[1]).toBe(formatPounds(ticketSums.get("2026-11") ?? 0));
    const csv = await csvOf(
      (await callRoute(
        incomeCsvLoader,
        await staffGet("/admin/income.csv"),
        await site.services.request(),
      )) as Response,
    );
    expect(csv).toEqual(asCsv(table));
    // The chart is an SVG's figures: a title, a description, a bar per month and kind that has any.
    expect(income.chart.title).toBe("Income by month, last 12 months");
    expect(income.chart.keys.map((key) => key.label)).toEqual(["Tickets", "One-off gifts", "Monthly gifts"]);
    expect(income.chart.xTicks).toHaveLength(12);
  });

  it("draws an event's seats sold by day beside a past event's, and the check-ins on the night", async () => {
    const [coming, past] = made.eventIds as [string, string];
    const request = await staffGet(`/admin/events/${coming}?compare=${past}`, "events");
    const page = await callRoute(eventLoader, request, await site.services.request(), { params: { id: coming } });
    const charts = page.salesCharts!;
    expect(charts.compare?.eventId).toBe(past);
    expect(charts.pastEvents.map((event) => event.id)).toContain(past);
    expect(charts.pastEvents.map((event) => event.id)).not.toContain(coming);
    const salesSql = (eventId: string) =>
      rows(sql`
          select (t.date_sold at time zone 'Europe/London')::date - (e.event_date at time zone 'Europe/London')::date as before,
            sum(t.quantity)::int as seats,
            sum((select sum(i.quantity - i.refunded) from booking_items i where i.booking_ref = t.booking_ref))::int as tickets
          from tickets t join events e on e.id = t.event_id
          where t.event_id = ${eventId} and t.is_valid group by 1 order by 1`);
    for (const [sales, eventId] of [
      [charts.sales, coming],
      [charts.compare!, past],
    ] as const) {
      const expected = await salesSql(eventId);
      expect(sales.days.map((day) => [day.before, day.seats, day.tickets])).toEqual(
        expected.map((row) => [Number(row.before), Number(row.seats), Number(row.tickets)]),
      );
      const [total] = await rows(
        sql`select sum(quantity)::int as seats from ${tickets} where event_id = ${eventId} and is_valid`,
      );
      expect(sales.seats).toBe(total!.seats);
      expect(sales.days.at(-1)!.seatsSoFar).toBe(total!.seats);
    }
    // By type, the tickets kept of each.
    const byType = await rows(sql`
        select ty.name, sum(i.quantity - i.refunded)::int as tickets from booking_items i
        join ticket_types ty on ty.id = i.ticket_type_id join tickets t on t.booking_ref = i.booking_ref and t.is_valid
        where ty.event_id = ${coming} group by ty.name`);
    for (const row of byType)
      expect(charts.sales.types.find((type) => type.name === row.name)?.tickets).toBe(Number(row.tickets));
    // The coming event has not had its night; its table and CSV, with the past event beside it.
    expect(charts.night).toBeNull();
    const table = salesTable(charts.sales, charts.compare);
    expect(table.header.slice(-2)).toEqual([
      `${compared(charts.compare!)}: seats sold`,
      `${compared(charts.compare!)}: seats so far`,
    ]);
    expect(table.foot!.at(-1)).toBe(`${charts.compare!.seats} of ${charts.compare!.seatsAvailable}`);
    const salesCsv = await csvOf(
      (await callRoute(
        salesCsvLoader,
        await staffGet(`/admin/events/${coming}/sales.csv?compare=${past}`, "events"),
        await site.services.request(),
        {
          params: { id: coming },
        },
      )) as Response,
    );
    expect(salesCsv).toEqual(asCsv(table));
    expect(charts.soFar.paths).toHaveLength(2);
    expect(charts.soFar.rules[0]!.label).toBe(`${charts.sales.seatsAvailable} seats available`);

    // The past event's night: check-ins per quarter hour against the places sold.
    const pastPage = await callRoute(
      eventLoader,
      await staffGet(`/admin/events/${past}`, "events"),
      await site.services.request(),
      {
        params: { id: past },
      },
    );
    const night = pastPage.salesCharts!.night!;
    const quarters = await rows(sql`
        select to_char(date_bin('15 minutes', scanned_at, '2000-01-01 00:00:00+00') at time zone 'Europe/London', 'HH24:MI') as slot,
          sum(count)::int as people
        from check_ins where event_id = ${past} and outcome = 'checked-in' group by 1 order by 1`);
    expect(night.checkIns.slots.filter((slot) => slot.people > 0).map((slot) => [slot.from, slot.people])).toEqual(
      quarters.map((row) => [row.slot, Number(row.people)]),
    );
    const [places] = await rows(
      sql`select sum(quantity)::int as n from ${tickets} where event_id = ${past} and is_valid`,
    );
    expect(night.checkIns.places).toBe(places!.n);
    expect(night.chart?.rules[0]?.label).toBe(`${places!.n} places sold`);
    const checkInsCsv = await csvOf(
      (await callRoute(
        checkInsCsvLoader,
        await staffGet(`/admin/events/${past}/check-ins.csv`, "events"),
        await site.services.request(),
        {
          params: { id: past },
        },
      )) as Response,
    );
    expect(checkInsCsv).toEqual(asCsv(checkInsTable(night.checkIns)));
  });
});

describe.each(engines)("the charts' rules on %s", (engine) => {
  const site = chartSite(engine, beforeEach, afterEach);
  async function staffGet(path: string, role: StaffRole = "owner") {
    const { cookie } = await signedInStaff(site.database.db, site.clock.now(), {
      role,
      email: `${role}-${Math.random()}@example.org`,
    });
    return new Request(`http://localhost${path}`, { headers: { cookie } });
  }

  it("takes refunds off, leaves test events out, counts months in London time and shows money only to who may see it", async () => {
    site.clock.set("2026-05-10T12:00:00Z");
    const now = site.clock.now();
    const eventId = await insertEvent(site.database.db, {}, now);
    const testEventId = await insertEvent(site.database.db, { isTest: true, name: "Test event" }, now);
    const paid = (event: string, paidAt: string, amountPence: number, refundedPence = 0) =>
      site.database.db.insert(bookings).values({
        bookingRef: crypto.randomUUID(),
        eventId: event,
        holderName: "A Buyer",
        email: "buyer@example.org",
        quantity: 2,
        seats: 2,
        amountPence,
        refundedPence,
        status: "paid",
        holdExpiresAt: new Date(paidAt),
        provider: "offline",
        createdAt: new Date(paidAt),
        paidAt: new Date(paidAt),
        updatedAt: new Date(paidAt),
      });
    // 23:30 UTC on 31 March is 00:30 on 1 April in London (BST): April's.
    await paid(eventId, "2026-03-31T23:30:00Z", 2500, 500);
    await paid(eventId, "2026-03-31T22:30:00Z", 1000);
    await paid(testEventId, "2026-04-10T12:00:00Z", 9900);
    // 23:30 UTC on 31 January is still 31 January in London (GMT).
    await site.database.db.insert(donations).values({
      id: crypto.randomUUID(),
      amountPence: 1000,
      donorName: "A Donor",
      email: "donor@example.org",
      status: "paid",
      provider: "offline",
      createdAt: new Date("2026-01-31T23:30:00Z"),
      paidAt: new Date("2026-01-31T23:30:00Z"),
      updatedAt: new Date("2026-01-31T23:30:00Z"),
    });

    const treasurer = await callRoute(homeLoader, await staffGet("/admin", "treasurer"), await site.services.request());
    const months = Object.fromEntries(treasurer.income!.income.months.map((month) => [month.month, month]));
    expect(Object.keys(months)).toHaveLength(12);
    expect(months["2026-04"]).toMatchObject({ ticketPence: 2000, oneOffPence: 0 });
    expect(months["2026-03"]).toMatchObject({ ticketPence: 1000 });
    expect(months["2026-01"]).toMatchObject({ ticketPence: 0, oneOffPence: 1000 });
    expect(months["2026-02"]).toMatchObject({ ticketPence: 0, oneOffPence: 0, monthlyPence: 0 });
    expect(months["2025-06"]).toMatchObject({ ticketPence: 0, oneOffPence: 0 });
    // Monthly gifts are not a series where there are none; nor is Gift Aid in the table.
    expect(treasurer.income!.chart.keys.map((key) => key.label)).toEqual(["Tickets", "One-off gifts"]);
    expect(incomeTable(treasurer.income!.income).header).toEqual(["Month", "Tickets", "One-off gifts", "Total"]);

    const events = await callRoute(homeLoader, await staffGet("/admin", "events"), await site.services.request());
    expect(events.income).toBeNull();
    const refused = await callRoute(
      incomeCsvLoader,
      await staffGet("/admin/income.csv", "events"),
      await site.services.request(),
    ).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(Response);
    expect((refused as Response).status).toBe(403);
  });
});

describe("npm run generate:bookings", () => {
  it("the generator refuses a live site unless told it is a test site", () => {
    expect(refusal({ production: true, demoPayments: true }, false)).toMatch(/production site/);
    expect(refusal({ production: false, demoPayments: false }, false)).toMatch(/real card payments/);
    expect(refusal({ production: true, demoPayments: false }, true)).toBeUndefined();
    expect(refusal({ production: false, demoPayments: true }, false)).toBeUndefined();
  });
});
