import type { ContentName } from "../schema";

// The pages staff edit at /admin/pages, in the order the list shows them: each content name's
// title, and the public page that shows it (for Preview and "See it as visitors do").

export const editablePages: { name: ContentName; title: string; publicPath: string }[] = [
  { name: "site", title: "Site settings", publicPath: "/" },
  { name: "home", title: "Home", publicPath: "/" },
  { name: "about", title: "About", publicPath: "/about" },
  { name: "contact", title: "Contact", publicPath: "/contact" },
  { name: "volunteering", title: "Volunteering", publicPath: "/volunteering" },
  { name: "fundraising", title: "Fundraising", publicPath: "/fundraising" },
  { name: "payment", title: "Payment", publicPath: "/payment" },
];

export function editablePage(name: ContentName) {
  return editablePages.find((page) => page.name === name)!;
}
