// Colours: mixing, shading and tinting #rrggbb values, and the skin and hair palettes for people.

/** Mixes two #rrggbb colours; t = 0 gives a, 1 gives b. */
export function mix(a: string, b: string, t: number): string {
  const pa = [1, 3, 5].map((i) => parseInt(a.slice(i, i + 2), 16));
  const pb = [1, 3, 5].map((i) => parseInt(b.slice(i, i + 2), 16));
  return `#${pa
    .map((v, i) => Math.round(v + (pb[i]! - v) * t))
    .map((v) => v.toString(16).padStart(2, "0"))
    .join("")}`;
}
export const shade = (c: string, t: number): string => mix(c, "#000000", t);
export const tint = (c: string, t: number): string => mix(c, "#ffffff", t);

export const SKIN = {
  deep: "#5b3a26",
  dark: "#6e4429",
  brown: "#8a5530",
  warm: "#a86b3c",
  olive: "#c48a57",
  tan: "#d9a273",
  light: "#efc8a4",
  pale: "#f6d8c0",
} as const;

export const HAIR = {
  black: "#1d1715",
  darkBrown: "#3a2a22",
  brown: "#6b4630",
  auburn: "#9a4a24",
  blonde: "#d6b066",
  grey: "#b9b6b2",
  white: "#e6e3de",
} as const;
