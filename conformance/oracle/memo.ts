/** A function of a string key, computed once per key: the oracle asks the model each question once. */
export function memo<T>(f: (key: string) => T): (key: string) => T {
  const cache = new Map<string, T>();
  return (key) => {
    let v = cache.get(key);
    if (v === undefined) cache.set(key, (v = f(key)));
    return v;
  };
}
