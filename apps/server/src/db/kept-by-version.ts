/**
 * Answers that depend only on the public data, kept until its version moves (as the filtered counts
 * of queries.ts and the response store are): the products and researchers a query names are read
 * again only when an import or a publication changed them. At most `limit` answers; the oldest
 * leave first, and a failed computation is not kept.
 */
export function keptByVersion<T>(dataVersion: () => string, limit: number) {
  const kept = new Map<string, Promise<T>>();
  let version = dataVersion();
  return (key: string, compute: () => Promise<T>): Promise<T> => {
    const current = dataVersion();
    if (current !== version) {
      kept.clear();
      version = current;
    }
    let answer = kept.get(key);
    if (!answer) {
      answer = compute();
      kept.set(key, answer);
      answer.catch(() => kept.delete(key));
      if (kept.size > limit) kept.delete(kept.keys().next().value ?? key);
    }
    return answer;
  };
}
