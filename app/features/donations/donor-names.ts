// Shared with a gift added to a booking (decision 085).
export { giftAidNamesFrom } from "~/lib/gift-aid-declaration";
