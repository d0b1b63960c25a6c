// The page's memory on the phone (localStorage): the seat's token, the party's, the
// profile, the deal checks. Private browsing may refuse it: then nothing is kept, and
// the page works for this visit.
export function stored(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function store(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // private browsing: kept for this visit only
  }
}
