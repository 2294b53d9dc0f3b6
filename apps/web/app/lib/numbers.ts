/**
 * Counts as the pages write them ("37,205"). One formatter for the process: `toLocaleString` builds
 * a new one on every call, which showed in the server render's profile.
 */
const COUNT = new Intl.NumberFormat("en-GB");

export const formatCount = (value: number): string => COUNT.format(value);
