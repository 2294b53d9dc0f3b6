/** Writes a .br and a .gz beside each text file of `dir` (recursively); returns how many. */
export function precompress(dir: string): number;
