/** The kinds of file worth compressing: text. */
export const compressible: RegExp;
/** Writes `.br` and `.gz` beside every compressible file in `dir` (recursively); returns how many files. */
export function precompress(dir: string): Promise<number>;
