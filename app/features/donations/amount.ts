// The donation amount rules live in app/lib (decision 085): a gift at checkout follows them too.
export {
  amountMessages,
  amountParam,
  donationBounds,
  giftAidPence,
  parseDonationAmount,
  type AmountResult,
} from "~/lib/donation-amount";
