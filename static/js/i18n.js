/*
 * Translation and the language switch. Templates mark text with data-i18n="key" (with
 * optional data-i18n-params='{"name": value}' or data-i18n-count) and attributes with
 * data-i18n-attr="attr:key;attr:key"; apply() fills them in and a switch re-renders
 * without a reload. The choice is remembered in the `lang` cookie (read by the server for
 * the next page) and localStorage. The strings themselves are in strings.js.
 */
import { STRINGS } from "./strings.js";

const LANGS = ["en", "zh"];
const listeners = [];

function readCookie(name) {
  const match = document.cookie.match(new RegExp("(?:^|; )" + name + "=([^;]*)"));
  return match ? decodeURIComponent(match[1]) : null;
}

function storedLang() {
  try {
    return localStorage.getItem("lang");
  } catch (_err) {
    return null;
  }
}

// The URL wins (a shared ?lang= link), then the cookie the server saw, then this
// browser's memory, then what the server rendered.
function initialLang() {
  const query = new URLSearchParams(window.location.search).get("lang");
  for (const candidate of [
    query,
    readCookie("lang"),
    storedLang(),
    document.documentElement.dataset.lang,
  ]) {
    if (LANGS.includes(candidate)) return candidate;
  }
  return "en";
}

let lang = initialLang();

function remember(code) {
  document.cookie = `lang=${code}; Path=/; Max-Age=31536000; SameSite=Lax`;
  try {
    localStorage.setItem("lang", code);
  } catch (_err) {
    /* private mode: the cookie alone still works */
  }
}

export function currentLang() {
  return lang;
}

export function has(key) {
  return key in STRINGS[lang] || key in STRINGS.en;
}

export function t(key, params) {
  let text = STRINGS[lang][key];
  if (text === undefined) text = STRINGS.en[key];
  if (text === undefined) return key;
  if (params) {
    text = text.replace(/\{(\w+)\}/g, (whole, name) =>
      name in params ? String(params[name]) : whole,
    );
  }
  return text;
}

function paramsOf(el) {
  if (el.dataset.i18nParams) {
    try {
      return JSON.parse(el.dataset.i18nParams);
    } catch (_err) {
      return undefined;
    }
  }
  return el.dataset.i18nCount !== undefined ? { count: el.dataset.i18nCount } : undefined;
}

export function apply(root) {
  const scope = root || document;
  // The text the page was served with is the fallback for keys this table lacks, so
  // switching back and forth never leaves a stale translation behind.
  scope.querySelectorAll("[data-i18n]").forEach((el) => {
    const key = el.dataset.i18n;
    if (el.dataset.i18nDefault === undefined) el.dataset.i18nDefault = el.textContent;
    el.textContent = has(key) ? t(key, paramsOf(el)) : el.dataset.i18nDefault;
  });
  scope.querySelectorAll("[data-i18n-attr]").forEach((el) => {
    for (const pair of el.dataset.i18nAttr.split(";")) {
      const [attr, key] = pair.split(":");
      if (attr && key && has(key.trim())) el.setAttribute(attr.trim(), t(key.trim()));
    }
  });
  scope.querySelectorAll("[data-i18n-level]").forEach((el) => {
    const number = el.dataset.i18nLevel;
    if (el.dataset.i18nDefault === undefined) el.dataset.i18nDefault = el.textContent;
    const key = `level.${number}.name`;
    el.textContent = has(key) ? `${number} · ${t(key)}` : el.dataset.i18nDefault;
  });
  document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
  document.documentElement.dataset.lang = lang;
  document.querySelectorAll("[data-set-lang]").forEach((el) => {
    const active = el.dataset.setLang === lang;
    el.classList.toggle("active", active);
    el.setAttribute("aria-pressed", active ? "true" : "false");
  });
}

export function setLang(code) {
  if (!LANGS.includes(code)) return;
  lang = code;
  remember(code);
  // Drop a ?lang= from the address so a reload keeps the remembered choice.
  const url = new URL(window.location.href);
  if (url.searchParams.has("lang")) {
    url.searchParams.delete("lang");
    window.history.replaceState(null, "", url.pathname + url.search + url.hash);
  }
  apply();
  listeners.forEach((fn) => fn(lang));
}

export function onChange(fn) {
  listeners.push(fn);
}

/** The text of a server error: its code's translation with its params, else its message. */
export function errorText(error) {
  const code = error && typeof error.code === "string" ? error.code : "unknown";
  const params = Object.assign({}, (error && error.params) || {});
  if (Array.isArray(params.choices)) params.choices = params.choices.join(", ");
  // A malformed payload says which field and why.
  const detailed = `error.${code}.${params.reason}`;
  if (params.reason && has(detailed)) return t(detailed, params);
  if (has("error." + code)) return t("error." + code, params);
  return (error && error.message) || t("error.unknown");
}

document.addEventListener("click", (event) => {
  const link = event.target.closest && event.target.closest("[data-set-lang]");
  if (!link) return;
  event.preventDefault();
  setLang(link.dataset.setLang);
});

remember(lang);
apply();
