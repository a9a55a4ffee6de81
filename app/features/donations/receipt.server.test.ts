import { describe, expect, it } from "vitest";
import { testCharity } from "../../../tests/support/content";
import { wordsOfHtml, wordsOfText } from "../../../tests/support/mail-text";
import { donationReceipt, type DonationReceiptDetails } from "./receipt.server";
import { declarationWording } from "./schema";

const id = "5b1d3c0e-2f4a-4c6b-8d9e-0a1b2c3d4e5f";

const details: DonationReceiptDetails = {
  donationId: id,
  donorName: "Amina Mushi",
  email: "amina@example.org",
  amountPence: 1000,
  // 13:15 in London (BST).
  paidAt: new Date("2027-06-12T12:15:00Z"),
  card: { brand: "visa", last4: "4242" },
  giftAid: null,
  charity: testCharity,
};

const declared = {
  firstName: "Amina",
  surname: "Mushi",
  houseNameOrNumber: "Rose Cottage",
  postcode: "SW1A 1AA",
  wording: declarationWording("this-and-past-four-years", 1000, "Kilele Village Trust"),
  declaredAt: new Date("2027-06-12T12:14:00Z"),
};

describe("the donation receipt", () => {
  it("thanks the donor for the amount, with the date and time, the card, and the reference", async () => {
    const mail = await donationReceipt(details);
    expect(mail.to).toEqual({ name: "Amina Mushi", address: "amina@example.org" });
    expect(mail.subject).toBe("Thank you for your donation of £10.00 to Kilele Village Trust");
    expect(mail.text).toContain(
      "Thank you for your donation of £10.00 to Kilele Village Trust, received on 12/06/2027 at 13:15.",
    );
    expect(mail.text).toContain(`Your donation reference is ${id}.`);
    expect(mail.text).toContain(
      `Amount: £10.00\nPaid on: 12/06/2027 at 13:15\nCard: Visa ending 4242\nDonation reference: ${id}`,
    );
  });

  it("says what the gift does, and the refund policy, in the charity's words", async () => {
    const mail = await donationReceipt(details);
    expect(mail.text).toContain(`What your gift does\n\n${testCharity.receipts.whatYourGiftDoes}`);
    expect(mail.text).toContain(`Refunds\n\n${testCharity.receipts.donationRefundPolicy}`);
    expect(mail.text).toContain("Questions? Reply to this e-mail, or write to kilele@example.org.");
    expect(mail.text).toContain("Kilele Village Trust, registered charity number 1187432");
  });

  it("without Gift Aid: no declaration, but what Gift Aid would add (25%) and how to add it", async () => {
    const mail = await donationReceipt(details);
    expect(mail.text).toContain("Gift Aid: Not declared");
    expect(mail.text).not.toContain("Your Gift Aid declaration");
    expect(mail.text).toContain(
      "Gift Aid lets us claim 25% more from HMRC: £2.50 on this gift, making it worth £12.50 to the Trust",
    );
    expect(mail.text).toContain("our donation page (https://kilele.example/payment)");
    expect(mail.text).toContain("choose a declaration that covers the past four years; it will cover this gift too.");
    expect(wordsOfText(mail.text)).toBe(wordsOfHtml(mail.html));
  });

  it("with Gift Aid: the declaration word for word, what it adds, and how to cancel it", async () => {
    const mail = await donationReceipt({ ...details, giftAid: declared });
    expect(mail.text).toContain("Gift Aid: Declared: we will claim £2.50 more from HMRC");
    expect(mail.text).toContain(`On 12/06/2027 you declared: "${declared.wording}"`);
    expect(mail.text).toContain("Name: Amina Mushi\nHome address: Rose Cottage, SW1A 1AA");
    expect(mail.text).toContain("so your gift is worth £12.50 to the Trust at no extra cost to you.");
    expect(mail.text).toContain(
      "To cancel this declaration, or if you change your name or home address, or no longer pay enough Income Tax and/or Capital Gains Tax, please tell us at kilele@example.org.",
    );
    expect(mail.text).not.toContain("Add Gift Aid");
    expect(wordsOfText(mail.text)).toBe(wordsOfHtml(mail.html));
  });

  it("names no card when the provider did not say which", async () => {
    const mail = await donationReceipt({ ...details, card: null });
    expect(mail.text).not.toContain("Card:");
  });

  it("carries the charity's logo, named by the HTML", async () => {
    const mail = await donationReceipt(details);
    expect(mail.attachments?.map((a) => a.cid)).toEqual(["charity-logo"]);
    expect(mail.html).toContain('<img src="cid:charity-logo" width="56" height="56" alt="Kilele Village Trust"');
  });
});
