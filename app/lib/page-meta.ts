/** The tags every page carries: its title and a description for search engines and link previews. */
export function pageMeta(title: string, description: string | undefined) {
  return [
    { title },
    ...(description ? [{ name: "description", content: description }] : []),
    { property: "og:title", content: title },
    ...(description ? [{ property: "og:description", content: description }] : []),
  ];
}
