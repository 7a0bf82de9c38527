/*
 * On/off choices remembered in this browser (localStorage, "1" or "0"). In private mode,
 * where storage may refuse, a choice lasts for the page.
 */
export function storedFlag(key, fallback) {
  try {
    const value = localStorage.getItem(key);
    return value === null ? fallback : value === "1";
  } catch (_err) {
    return fallback;
  }
}

export function storeFlag(key, on) {
  try {
    localStorage.setItem(key, on ? "1" : "0");
  } catch (_err) {
    /* private mode: the choice lasts for this page */
  }
}
