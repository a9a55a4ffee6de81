/** The slide shown after moving `step` places from `index` in a wheel of `count`, wrapping at both ends. */
export function wrapIndex(index: number, step: number, count: number): number {
  if (count <= 0) return 0;
  return (((index + step) % count) + count) % count;
}

/** Whether the wheel should turn by itself right now. */
export function shouldAutoAdvance(state: {
  count: number;
  playing: boolean;
  hovered: boolean;
  focused: boolean;
  reducedMotion: boolean;
}): boolean {
  return state.count > 1 && state.playing && !state.hovered && !state.focused && !state.reducedMotion;
}
